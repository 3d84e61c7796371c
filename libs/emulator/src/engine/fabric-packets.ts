/**
 * The packets of a whole fabric, as the rest of the emulator sees them. A fabric keeps a packet
 * store per independent part (see FabricEngine.parts), so that a part run on a thread of its own
 * allocates ids, counts its books and frees its entries without touching another part's: ids are
 * a part's own. Outside the engine a packet is named by a handle, `id * parts + part`, which is
 * the id itself on a fabric of one part. The books are the sum of the parts'.
 */
import { DISCARD_REASONS, DiscardLedgerEntry, PacketStore, TraceEvent } from './packet-store';

export interface PacketBooks {
  created: number;
  delivered: number;
  discarded: Record<string, number>;
  inFlight: number;
  balanced: boolean;
}

/** The books of an engine that counts its discards by reason in a map: balanced when every packet made is delivered, discarded or in flight. */
export function booksFrom(created: number, delivered: number, discards: ReadonlyMap<string, number>, inFlight: number): PacketBooks {
  const discarded: Record<string, number> = {};
  let total = 0;
  for (const [reason, count] of discards) {
    discarded[reason] = count;
    total += count;
  }
  return { created, delivered, discarded, inFlight, balanced: created === delivered + total + inFlight };
}

/** The per-packet fields a handle reads (PacketStore's arrays). */
type PacketField = 'tag' | 'destination' | 'source' | 'length' | 'vc' | 'flags' | 'hops' | 'createdAt' | 'enteredAt';

export class FabricPackets {
  constructor(
    /** Each part's store. */
    readonly stores: readonly PacketStore[],
  ) {}

  get parts(): number {
    return this.stores.length;
  }

  /** The handle of part `part`'s packet `id`. */
  handle(part: number, id: number): number {
    return id * this.stores.length + part;
  }

  partOf(handle: number): number {
    return handle % this.stores.length;
  }

  idOf(handle: number): number {
    return Math.floor(handle / this.stores.length);
  }

  private storeOf(handle: number): PacketStore {
    return this.stores[handle % this.stores.length];
  }

  /** A packet's field, read from its part's store. */
  private field(name: PacketField, handle: number): number {
    return this.storeOf(handle)[name][this.idOf(handle)];
  }

  tag = (handle: number): number => this.field('tag', handle);
  destination = (handle: number): number => this.field('destination', handle);
  /** The global port it was injected at (-1: none). */
  source = (handle: number): number => this.field('source', handle);
  length = (handle: number): number => this.field('length', handle);
  vc = (handle: number): number => this.field('vc', handle);
  flags = (handle: number): number => this.field('flags', handle);
  hops = (handle: number): number => this.field('hops', handle);
  createdAt = (handle: number): number => this.field('createdAt', handle);
  /** The cycle it left its source queue (-1: not yet). */
  enteredAt = (handle: number): number => this.field('enteredAt', handle);

  /** A traced packet's trace (FLAG_TRACE), kept until its id is given to another traced packet. */
  trace(handle: number): TraceEvent[] | undefined {
    return this.storeOf(handle).traces.get(this.idOf(handle));
  }

  /** Labelled packets (tag > 0) of part `part` in flight. */
  taggedInFlightOf(part: number): number {
    return this.stores[part].taggedInFlight;
  }

  private sum(field: 'created' | 'delivered' | 'deliveredPhits' | 'inFlight' | 'taggedInFlight' | 'totalDiscarded'): number {
    let n = 0;
    for (const store of this.stores) n += store[field];
    return n;
  }

  get created(): number {
    return this.sum('created');
  }

  get delivered(): number {
    return this.sum('delivered');
  }

  get deliveredPhits(): number {
    return this.sum('deliveredPhits');
  }

  get inFlight(): number {
    return this.sum('inFlight');
  }

  get taggedInFlight(): number {
    return this.sum('taggedInFlight');
  }

  get totalDiscarded(): number {
    return this.sum('totalDiscarded');
  }

  /** Discards by reason (index: DiscardReason). */
  get discarded(): Float64Array {
    const out = new Float64Array(DISCARD_REASONS.length);
    for (const store of this.stores) for (let i = 0; i < out.length; i++) out[i] += store.discarded[i];
    return out;
  }

  /** The books: every created packet is delivered, discarded with a reason, or still in flight. */
  books(): PacketBooks {
    const discarded: Record<string, number> = {};
    const byReason = this.discarded;
    DISCARD_REASONS.forEach((name, i) => {
      if (byReason[i] > 0) discarded[name] = byReason[i];
    });
    const created = this.created;
    const delivered = this.delivered;
    const inFlight = this.inFlight;
    return { created, delivered, discarded, inFlight, balanced: created === delivered + this.totalDiscarded + inFlight };
  }

  /** Opens every part's discard ledger (PacketStore.openDiscardLedger). */
  openDiscardLedger(): void {
    for (const store of this.stores) store.openDiscardLedger();
  }

  nextDiscardEpoch(): void {
    for (const store of this.stores) store.nextDiscardEpoch();
  }

  /**
   * The parts' ledgers as one, and closed. The parts never share an entry (an entry is of one
   * port, and a port is of one part); they are listed by epoch, then first cycle, reason, port and
   * destination, an order that does not depend on which part ran when.
   */
  takeDiscardLedger(): DiscardLedgerEntry[] {
    const entries = this.stores.flatMap((store) => store.takeDiscardLedger());
    return entries.sort((a, b) => a.epoch - b.epoch || a.firstCycle - b.firstCycle || a.reason - b.reason || a.port - b.port || a.destination - b.destination);
  }
}
