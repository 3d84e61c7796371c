/**
 * The stage skeleton compiled (native/stage-skeleton.c): writes the workload the TypeScript
 * skeleton is given — the fabric, its routing registers as written, the arrivals of a warm-up run
 * and a measured run — to a file the C program reads, compiles the program with the machine's
 * gcc and runs it. It answers one question for the team: what the skeleton's construction runs at
 * as compiled code, next to the TypeScript figure (see the README's bench paragraph).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCATION_MASK, PORTS, TABLE_ENTRIES, TABLE_SHIFT, YarcFabricSim } from '@weft/emulator';
import { SKELETON_FIGURES } from './stage-skeleton';

const SOURCE = join(__dirname, '../../../test/bench/native/stage-skeleton.c');
const MAGIC = 0x314b5357; // 'WSK1'

/** One run's arrivals, as the TypeScript skeleton is given them: each part's in cycle order. */
export interface RecordedArrivals {
  /** Per part, where its arrivals start in `list`; the last entry is their number. */
  readonly partStart: Int32Array;
  /** (cycle from the run's start, injection port, destination) per arrival. */
  readonly list: Int32Array;
}

/**
 * Records the arrivals `beforeCycle` makes over `cycles` cycles from `start`, part by part (each
 * part draws from its own stream, so the order across parts does not change them).
 */
export function recordArrivals(
  parts: number,
  start: number,
  cycles: number,
  makeArrivals: (inject: (port: number, destination: number) => void) => (part: number, cycle: number) => void,
): RecordedArrivals {
  const list: number[] = [];
  const partStart = new Int32Array(parts + 1);
  let cycle = start;
  const beforeCycle = makeArrivals((port, destination) => list.push(cycle - start, port, destination));
  for (let part = 0; part < parts; part++) {
    partStart[part] = list.length / 3;
    for (cycle = start; cycle < start + cycles; cycle++) beforeCycle(part, cycle);
  }
  partStart[parts] = list.length / 3;
  return { partStart, list: Int32Array.from(list) };
}

export interface NativeSkeletonRun {
  /** The measured run's wall time and phit-hops. */
  ms: number;
  phitHops: number;
  /** Packets in the fabric at the end of the measured run. */
  inFlight: number;
  /** The books after the drain, and the phit-hops of all three runs. */
  injected: number;
  delivered: number;
  totalPhitHops: number;
}

export class NativeSkeleton {
  private readonly directory = mkdtempSync(join(tmpdir(), 'weft-native-skeleton-'));
  private readonly binary = join(this.directory, 'stage-skeleton');
  private readonly workload = join(this.directory, 'workload.bin');

  /** Compiles the program; fails naming the compiler when the machine has none. */
  constructor() {
    try {
      execFileSync('gcc', ['-O2', '-std=c11', '-D_POSIX_C_SOURCE=199309L', '-o', this.binary, SOURCE, '-lm'], { stdio: 'pipe' });
    } catch (error) {
      const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
      this.dispose();
      throw new Error(`the compiled stage skeleton needs gcc (Debian package gcc) to build ${SOURCE}: ${detail}`, { cause: error });
    }
  }

  /** Writes the workload: `sim`'s fabric and registers, the warm-up and measured runs' arrivals. */
  writeWorkload(
    sim: YarcFabricSim,
    cycles: number,
    window: number,
    packetPhits: number,
    drainCycles: number,
    runs: [RecordedArrivals, RecordedArrivals],
  ): void {
    const { fabric, globalRouterPort, routerPortGlobal, regs } = sim;
    const P = fabric.portCount;
    const T = routerPortGlobal.length;
    // The C program reads the register file in this layout (4 words per table entry, stage-skeleton.c).
    if (regs.portMap.length !== T * PORTS || regs.table.length !== (T * TABLE_ENTRIES) << TABLE_SHIFT || TABLE_SHIFT !== 2)
      throw new Error('the register file is not laid out as the compiled stage skeleton reads it');
    const rate = new Float64Array(P);
    const latency = new Int32Array(P);
    for (let g = 0; g < P; g++) {
      if (fabric.peer[g] < 0) continue;
      rate[g] = sim.linkRateOf(g);
      latency[g] = sim.linkLatencyOf(g);
    }
    const header = Int32Array.of(
      MAGIC,
      T,
      P,
      sim.parts,
      cycles,
      window,
      packetPhits,
      SKELETON_FIGURES.inputStages,
      SKELETON_FIGURES.columnDelay,
      SKELETON_FIGURES.outputStages,
      SKELETON_FIGURES.rowDelay,
      SKELETON_FIGURES.rowVcLimit,
      SKELETON_FIGURES.columnVcLimit,
      SKELETON_FIGURES.inputVcPhits,
      SKELETON_FIGURES.endpointReceivePhits,
      LOCATION_MASK,
      drainCycles,
    );
    const ints = (a: ArrayLike<number>) => Buffer.from(Int32Array.from(a).buffer);
    const parts: Buffer[] = [
      ints(header),
      ints(fabric.peer),
      ints(latency),
      ints(globalRouterPort),
      Buffer.from(rate.buffer),
      ints(routerPortGlobal),
      ints(regs.portDirection),
      ints(regs.rootLocation),
      ints(regs.rootMask),
      ints(regs.downShift),
      ints(regs.downMask),
      ints(regs.hashSelect),
      ints(regs.portMap),
      Buffer.from(regs.table.buffer, regs.table.byteOffset, regs.table.byteLength),
    ];
    for (const run of runs) parts.push(ints(run.partStart), ints(run.list));
    writeFileSync(this.workload, Buffer.concat(parts));
  }

  /** Runs the warm-up run, the measured run and the drain in a process of the program's own. */
  run(): NativeSkeletonRun {
    const out = execFileSync(this.binary, [this.workload], { encoding: 'utf8', maxBuffer: 1 << 20 });
    return JSON.parse(out) as NativeSkeletonRun;
  }

  /** Removes the program and its workload. */
  dispose(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }
}
