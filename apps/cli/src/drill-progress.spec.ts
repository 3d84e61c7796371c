import { DrillProgress } from './drill-progress';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, target: { isTTY, write: (text: string) => written.push(text) } };
}

describe('drill run progress', () => {
  it('in a log or a pipe, writes a line each time the step changes, with its emulated time, and no carriage returns', () => {
    const { written, target } = stream(false);
    const progress = new DrillProgress(target);
    progress.update(0, 30_000_000, 'configuring the fabric');
    progress.update(0, 30_000_000, 'configuring the fabric');
    progress.update(2_000_000, 30_000_000, 'kill-router s1.r1.5');
    progress.update(2_100_000, 30_000_000, 'kill-router s1.r1.5');
    progress.update(30_000_000, 30_000_000, 'running to the end');
    progress.done();
    expect(written.join('')).toBe(
      [
        '  0%        0.0 µs  configuring the fabric',
        '  7%     2000.0 µs  kill-router s1.r1.5',
        '100%    30000.0 µs  running to the end',
        '100%  done',
        '',
      ].join('\n'),
    );
  });

  it('on a terminal, redraws one bar in place and ends its line when done', () => {
    const { written, target } = stream(true);
    const progress = new DrillProgress(target);
    progress.update(15_000_000, 30_000_000, 'kill-router s1.r1.5');
    progress.update(15_000_000, 30_000_000, 'kill-router s1.r1.5');
    progress.done();
    expect(written).toHaveLength(3);
    expect(written[0]).toBe(`\r[${'#'.repeat(15)}${'-'.repeat(15)}]  50% kill-router s1.r1.5`.padEnd(100));
    expect(written[2]).toBe(`\r[${'#'.repeat(30)}] 100% done`.padEnd(100) + '\n');
  });
});
