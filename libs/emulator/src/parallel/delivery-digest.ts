/**
 * What a fabric delivered, whatever order the deliveries were seen in (issue 56): how many, their
 * latency (summed in 1/1024ths of a cycle, so that the sum is exact in any order) and a sum of a
 * hash of each delivery's source, serial number, destination and cycle — so that a run on one
 * thread and the same run on several (block-threads.ts) compare packet for packet. Each thread
 * writes its digest among its figures; the caller sums them (DeliveryDigest.sum).
 */
import { keyedDraw } from '@weft/fabric-model';

/** The figures a digest writes: delivered, latency (1/1024ths of a cycle), hash. */
export const DIGEST_WORDS = 3;
const LATENCY_UNITS = 1024;
const HASH_RANGE = 4294967296;

export class DeliveryDigest {
  delivered = 0;
  hash = 0;
  private latencyUnits = 0;

  /** One delivery: packet (source, serial) at `destination` in cycle `cycle`, `latency` cycles after it was sent. */
  record(source: number, serial: number, destination: number, cycle: number, latency: number): void {
    this.delivered++;
    this.latencyUnits += Math.round(latency * LATENCY_UNITS);
    this.hash = (this.hash + keyedDraw(source, serial, destination, cycle) * HASH_RANGE) % HASH_RANGE;
  }

  get latencyCycles(): number {
    return this.latencyUnits / LATENCY_UNITS;
  }

  /** Writes the digest's DIGEST_WORDS figures from `offset`. */
  write(into: Float64Array, offset: number): void {
    into[offset] = this.delivered;
    into[offset + 1] = this.latencyUnits;
    into[offset + 2] = this.hash;
  }

  /** The digest of every thread's deliveries, each thread's written at `offset` of its figures. */
  static sum(perThread: readonly Float64Array[], offset: number): { delivered: number; latencyCycles: number; hash: number } {
    const all = new DeliveryDigest();
    for (const figures of perThread) {
      all.delivered += figures[offset];
      all.latencyUnits += figures[offset + 1];
      all.hash = (all.hash + figures[offset + 2]) % HASH_RANGE;
    }
    return { delivered: all.delivered, latencyCycles: all.latencyCycles, hash: all.hash };
  }
}

/** One figure (`word` of each thread's figures) summed over the threads. */
export function summed(perThread: readonly Float64Array[], word: number): number {
  return perThread.reduce((total, figures) => total + figures[word], 0);
}

/** Each thread's discards by reason (its figures from `offset`, in `reasons`' order), summed: the reasons with any. */
export function summedDiscards(perThread: readonly Float64Array[], offset: number, reasons: readonly string[]): Record<string, number> {
  const discarded: Record<string, number> = {};
  for (const figures of perThread)
    reasons.forEach((reason, i) => {
      if (figures[offset + i] > 0) discarded[reason] = (discarded[reason] ?? 0) + figures[offset + i];
    });
  return discarded;
}
