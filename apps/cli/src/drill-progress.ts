/** Where `drill run` writes its progress: standard error, or a test's stand-in. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * How `drill run` shows a drill's progress. On a terminal, a bar redrawn in place. Anywhere else (a
 * log file, a pipe, CI), a line each time the step changes, with the emulated time it was reached:
 * the log then reads as the drill's timeline and holds no carriage returns or repeated lines.
 */
export class DrillProgress {
  private lastStep: string | null = null;

  constructor(private readonly stream: ProgressStream) {}

  update(emulatedNs: number, durationNs: number, step: string): void {
    if (this.stream.isTTY) {
      this.stream.write(`\r${progressBar(emulatedNs, durationNs)} ${step}`.padEnd(100));
      return;
    }
    if (step === this.lastStep) return;
    this.lastStep = step;
    this.stream.write(`${percent(emulatedNs, durationNs)}  ${(emulatedNs / 1000).toFixed(1).padStart(9)} µs  ${step}\n`);
  }

  done(): void {
    if (this.stream.isTTY) this.stream.write(`\r${progressBar(1, 1)} done`.padEnd(100) + '\n');
    else this.stream.write(`${percent(1, 1)}  done\n`);
  }
}

function fractionOf(done: number, total: number): number {
  return total > 0 ? Math.min(1, done / total) : 1;
}

function percent(done: number, total: number): string {
  return `${String(Math.round(fractionOf(done, total) * 100)).padStart(3)}%`;
}

/** `[#######-------]  47%` */
function progressBar(done: number, total: number): string {
  const width = 30;
  const filled = Math.round(fractionOf(done, total) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent(done, total)}`;
}
