import { readFileSync } from 'node:fs';

/**
 * Times a synchronous computation by the CPU time it took, which other processes on the machine
 * do not inflate as they do its wall time (a drill's verdict must not depend on how busy the
 * machine is).
 *
 * Linux accounts a thread's CPU time (getrusage, /proc/…/stat, Node's `threadCpuUsage`) in whole
 * scheduler ticks: a 2 ms computation reads as 0 or 4 ms. What Linux does keep to the nanosecond
 * is how long a runnable thread waited for a CPU (`run_delay`, the second figure of
 * /proc/thread-self/schedstat, brought up to date each time the thread is put back on a CPU). A
 * computation that never blocks was on a CPU for its wall time less that wait — exact on an idle
 * machine and on one with every core taken. Where the kernel keeps no schedstat, the coarse thread
 * CPU time stands in, and where Node cannot say that either, the wall time.
 */
export class CpuStopwatch {
  private readonly wallStart = performance.now();
  private readonly waitStart = runQueueWaitMs();
  private readonly cpuStart = threadCpuMs();

  /** Wall time since the stopwatch started, in ms. */
  wallMs(): number {
    return performance.now() - this.wallStart;
  }

  /** CPU time since the stopwatch started, in ms. */
  cpuMs(): number {
    const wall = this.wallMs();
    const wait = runQueueWaitMs();
    if (this.waitStart !== null && wait !== null) return Math.max(0, wall - (wait - this.waitStart));
    const cpu = threadCpuMs();
    if (this.cpuStart !== null && cpu !== null) return cpu - this.cpuStart;
    return wall;
  }
}

let schedstatReadable = process.platform === 'linux';

/** Time the calling thread has spent runnable but waiting for a CPU, in ms; null where unknown. */
function runQueueWaitMs(): number | null {
  if (!schedstatReadable) return null;
  try {
    const fields = readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ');
    const waitNs = Number(fields[1]);
    if (Number.isFinite(waitNs)) return waitNs / 1e6;
  } catch {
    // No schedstat in this kernel (CONFIG_SCHED_INFO off) or no /proc: use the fallbacks.
  }
  schedstatReadable = false;
  return null;
}

/** CPU time of the calling thread, in ms, to the scheduler tick (Node 22.19 and later). */
function threadCpuMs(): number | null {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage ? (usage.user + usage.system) / 1000 : null;
}
