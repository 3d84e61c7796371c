import { runCli } from '../../../apps/cli/src/main';
import { EmulatorService } from '../../../apps/fabric-manager/src/emulator/emulator.service';
import type { TestService } from './test-service';

const START = `mutation($input: StartDrillInput!) { startDrill(input: $input) { id state drill } }`;
const RUN = `query($id: ID!) { drillRun(id: $id) { state progress { emulatedNs step } report text plotSvg } }`;

/** What the drill specs read of a drill report (drill-report.ts). */
export interface DrillReport {
  passed: boolean;
  expectations: { name: string; passed: boolean; actual: string }[];
  heal: { step: string; healNs: number | null }[];
  generations: { generation: number; incremental: boolean; pushedAtNs: number | null; writes: number | null }[];
  discards: { total: number; explained: number; unexplained: number; causes: { cause: string; count: number; byReason: Record<string, number> }[] };
  traffic: {
    retransmissions?: number;
    books: { balanced: boolean; injected: number; delivered: number; discarded: Record<string, number>; inFlight: number };
    markers: { label: string }[];
    accepted: number;
  };
  interrupts: { kind: string; chip: string | null; port: number | null }[];
  declaredCut: number;
}

/** Starts a shipped drill through the API and waits for its verdict (DRILL_DEBUG=1 prints its progress and text). */
export async function runDrill(service: TestService, key: string, fixture: string): Promise<{ state: string; report: DrillReport; text: string }> {
  const started = await service.gql<{ startDrill: { id: string } }>(START, { input: { fixture } }, key);
  if (started.errors) throw new Error(JSON.stringify(started.errors));
  for (;;) {
    const view = (await service.gql<{ drillRun: { state: string; report: DrillReport; text: string } }>(RUN, { id: started.data!.startDrill.id }, key)).data!
      .drillRun;
    if (view.state !== 'running') {
      if (process.env.DRILL_DEBUG) console.log(view.text);
      return view;
    }
    if (process.env.DRILL_DEBUG)
      console.log(JSON.stringify((view as unknown as { progress: unknown }).progress), JSON.stringify(await service.app.get(EmulatorService).fabricStatus()));
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Runs a shipped drill as an operator does, through the command line (`weft drill run <name>`,
 * issue 54: every Anton 2 drill passed and yet the command failed printing its report), and checks
 * that it passed — the command's exit code, its printed report, every expectation; its report.
 */
export async function passedDrill(service: TestService, key: string, fixture: string): Promise<DrillReport> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  let code: number;
  try {
    code = await runCli(['node', 'weft', 'drill', 'run', fixture, '--url', service.url, '--key', key]);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  if (process.env.DRILL_DEBUG) console.log(stdout, stderr);
  const id = /^drill [\w-]+: run #(\d+)$/m.exec(stderr)?.[1];
  // A failing drill's report is the message: what the command printed says which expectation failed.
  // Failing expectations and unexplained discards first: CI keeps the head of a long message.
  const verdict = stdout.split('\n').filter((line) => /^\s*(FAIL |NOT EXPLAINED|#\d+: )/.test(line));
  if (code !== 0 || !id) throw new Error(`weft drill run ${fixture} exited ${code}:\n${verdict.join('\n')}\n\n${stdout}${stderr.slice(-2000)}`);
  expect(stdout).toMatch(new RegExp(`^drill ${fixture}: PASSED `));
  const view = (await service.gql<{ drillRun: { state: string; report: DrillReport } }>(RUN, { id }, key)).data!.drillRun;
  expect(view.report.expectations.filter((e) => !e.passed)).toEqual([]);
  expect(view.state).toBe('passed');
  return view.report;
}

/** The ends that reported their link down, as chip:port, sorted. */
export const linkDownEnds = (r: DrillReport) =>
  r.interrupts
    .filter((i) => i.kind === 'LINK_DOWN')
    .map((i) => `${i.chip}:${i.port}`)
    .sort();

/** Packets the drill's traffic lost, by every reason. */
export const lost = (r: DrillReport) => Object.values(r.traffic.books.discarded).reduce((a, b) => a + b, 0);
