// Traffic runs and sweeps (issues 39, 40): start a run, or a sweep — a study whose loads are points
// done by `weft worker` processes off the job queue (or by the manager itself) — their progress,
// each report with the plot of its time series, and a sweep's latency against offered load.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { mayOperate, messageOf, Session } from './api';
import { VegaPlot } from './plot';
import { ErrorLine, RunLink } from './ui';

interface Run {
  id: string;
  pattern: string;
  state: string;
  parameters: { load?: number; mode?: string; packetPhits?: number };
  results: Report | null;
  startedAt: string;
}
interface Report {
  error?: string;
  offered?: number;
  accepted?: number;
  saturated?: boolean;
  latency?: { meanCycles: number; p99Cycles: number; meanNs: number; p99Ns: number };
  books?: { injected: number; delivered: number; inFlight: number; balanced: boolean; discarded: Record<string, number> };
  series?: { cycle: number; accepted: number; meanLatencyCycles: number }[];
}

const RUN_FIELDS = 'id pattern state parameters results startedAt';

interface Sweep {
  id: string;
  state: string;
  pointsDone: number;
  pointsTotal: number;
  parameters: { pattern?: { kind?: string } };
  points: { index: number; parameters: { load?: number }; state: string; worker: string | null; attempts: number; result: Report | null }[];
  report: {
    points: { load: number; accepted: number; meanLatencyCycles: number; p99LatencyCycles: number; saturated: boolean }[];
    saturationLoad: number | null;
  } | null;
}

const SWEEP_FIELDS = 'id state pointsDone pointsTotal parameters points { index parameters state worker attempts result } report';

/** What the report panel shows: a run, or one point of a sweep. */
interface Shown {
  title: string;
  state: string;
  results: Report | null;
}

export function Traffic({ session, fabricId }: { session: Session; fabricId: string }) {
  const [runs, setRuns] = useState<Run[]>([]);
  const [sweeps, setSweeps] = useState<Sweep[]>([]);
  // What is open: a run by id, or a sweep and (optionally) one of its points.
  const [open, setOpen] = useState<{ run: string } | { sweep: string; point: number | null } | null>(null);
  const [form, setForm] = useState({ pattern: 'uniform-random', loads: '0.3', sampleCycles: '5000' });
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const { trafficRuns, studies } = await session.api.query<{ trafficRuns: Run[]; studies: Sweep[] }>(
      `query($input: FabricIdInput!, $studies: StudiesInput) { trafficRuns(input: $input) { ${RUN_FIELDS} } studies(input: $studies) { ${SWEEP_FIELDS} } }`,
      { input: { fabricId }, studies: { fabricId, kind: 'sweep', first: 10 } },
    );
    setRuns(trafficRuns);
    setSweeps(studies);
    return { trafficRuns, studies };
  }, [session, fabricId]);

  // Poll while a run or a sweep is under way.
  const [polling, setPolling] = useState(0);
  useEffect(() => {
    let stop = false;
    const tick = async () => {
      try {
        const { trafficRuns, studies } = await refresh();
        const busy = trafficRuns.some((r) => r.state === 'running') || studies.some((s) => s.state === 'queued' || s.state === 'running');
        if (!stop && busy) setTimeout(tick, 1000);
      } catch (e) {
        setError(messageOf(e));
      }
    };
    void tick();
    return () => {
      stop = true;
    };
  }, [refresh, polling]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const loads = form.loads.split(',').map((v) => Number(v.trim()));
    const bad = loads.find((l) => !(l > 0 && l <= 1));
    if (bad !== undefined) return setError(`each load must be a fraction of capacity in (0, 1], got ${bad}`);
    const shared = { fabricId, pattern: form.pattern, sampleCycles: Number(form.sampleCycles) };
    try {
      if (loads.length === 1) {
        const { startTrafficRun } = await session.api.query<{ startTrafficRun: { id: string } }>(
          'mutation($input: StartTrafficRunInput!) { startTrafficRun(input: $input) { id } }',
          { input: { ...shared, mode: 'steady-state', load: loads[0] } },
        );
        setOpen({ run: startTrafficRun.id });
      } else {
        const { startSweep } = await session.api.query<{ startSweep: { id: string } }>(
          'mutation($input: StartSweepInput!) { startSweep(input: $input) { id } }',
          {
            input: { ...shared, loads },
          },
        );
        setOpen({ sweep: startSweep.id, point: null });
      }
      setPolling((n) => n + 1);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const openSweep = open && 'sweep' in open ? (sweeps.find((s) => s.id === open.sweep) ?? null) : null;
  const shown: Shown | null = useMemo(() => {
    if (open && 'run' in open) {
      const run = runs.find((r) => r.id === open.run);
      return run ? { title: `Run #${run.id}`, state: run.state, results: run.results } : null;
    }
    const point = openSweep && open && 'sweep' in open && open.point !== null ? openSweep.points[open.point] : null;
    return point && openSweep ? { title: `Sweep #${openSweep.id}, load ${point.parameters.load}`, state: point.state, results: point.result } : null;
  }, [open, runs, openSweep]);
  // Latency against offered load: the open sweep's report (the newest sweep's when none is open).
  const sweep = useMemo(() => {
    const study = openSweep ?? sweeps[0] ?? null;
    const points = study?.report?.points ?? [];
    if (!study || points.length < 2) return null;
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      title: `sweep #${study.id} (${study.parameters.pattern?.kind ?? '?'}): latency against offered load`,
      width: 360,
      height: 200,
      data: { values: points.map((p) => ({ offered: p.load, accepted: p.accepted, latency: p.meanLatencyCycles, saturated: p.saturated })) },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'offered', type: 'quantitative', title: 'offered load (fraction of capacity)' },
        y: { field: 'latency', type: 'quantitative', title: 'mean latency (cycles)' },
        tooltip: [{ field: 'offered' }, { field: 'accepted' }, { field: 'latency' }, { field: 'saturated' }],
      },
    };
  }, [openSweep, sweeps]);
  const series = useMemo(
    () =>
      shown?.results?.series?.length
        ? {
            $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
            title: `${shown.title}: accepted throughput over time`,
            width: 360,
            height: 160,
            data: { values: shown.results.series },
            mark: 'line',
            encoding: {
              x: { field: 'cycle', type: 'quantitative' },
              y: { field: 'accepted', type: 'quantitative', title: 'accepted (fraction of capacity)' },
            },
          }
        : null,
    [shown],
  );

  return (
    <section className="traffic">
      <ErrorLine error={error} />
      {mayOperate(session.role) && (
        <form className="traffic-form" onSubmit={(e) => void submit(e)}>
          <label>
            pattern{' '}
            <select aria-label="traffic pattern" value={form.pattern} onChange={(e) => setForm({ ...form, pattern: e.target.value })}>
              {['uniform-random', 'random-permutation', 'bit-complement', 'transpose', 'tornado', 'neighbour', 'hot-region', 'adversarial'].map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </label>{' '}
          <label>
            loads <input aria-label="loads" value={form.loads} onChange={(e) => setForm({ ...form, loads: e.target.value })} size={16} />
          </label>{' '}
          <label>
            sample cycles{' '}
            <input aria-label="sample cycles" value={form.sampleCycles} onChange={(e) => setForm({ ...form, sampleCycles: e.target.value })} size={7} />
          </label>{' '}
          <button type="submit">Run</button>{' '}
          <small>(several loads, comma-separated: a sweep, its loads done by the workers, each on a copy of the fabric as configured)</small>
        </form>
      )}
      {sweeps.length > 0 && (
        <table data-testid="sweeps">
          <thead>
            <tr>
              <th>sweep</th>
              <th>pattern</th>
              <th>state</th>
              <th>loads done</th>
              <th>saturates at</th>
            </tr>
          </thead>
          <tbody>
            {sweeps.map((s) => (
              <tr key={s.id} data-sweep={s.id}>
                <td>
                  <button type="button" className="link" onClick={() => setOpen({ sweep: s.id, point: null })}>
                    #{s.id}
                  </button>
                </td>
                <td>{s.parameters.pattern?.kind ?? '—'}</td>
                <td>{s.state}</td>
                <td>
                  {s.pointsDone} of {s.pointsTotal}
                </td>
                <td>{s.report?.saturationLoad ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {openSweep && (
        <table data-testid="sweep-points">
          <thead>
            <tr>
              <th>load</th>
              <th>state</th>
              <th>done by</th>
              <th>accepted</th>
              <th>mean latency</th>
            </tr>
          </thead>
          <tbody>
            {openSweep.points.map((p) => (
              <tr key={p.index} data-point={p.index}>
                <td>
                  <button type="button" className="link" onClick={() => setOpen({ sweep: openSweep.id, point: p.index })}>
                    {p.parameters.load}
                  </button>
                </td>
                <td>{p.state}</td>
                <td>
                  {p.worker ?? '—'}
                  {p.attempts > 1 ? ` (attempt ${p.attempts})` : ''}
                </td>
                <td>{p.result?.accepted?.toFixed(3) ?? '—'}</td>
                <td>{p.result?.latency ? `${p.result.latency.meanCycles.toFixed(1)} cycles` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <table>
        <thead>
          <tr>
            <th>run</th>
            <th>pattern</th>
            <th>load</th>
            <th>state</th>
            <th>accepted</th>
            <th>mean latency</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id} data-run={r.id}>
              <td>
                <RunLink id={r.id} open={(id) => setOpen({ run: id })} />
              </td>
              <td>{r.pattern}</td>
              <td>{r.parameters.load ?? '—'}</td>
              <td>{r.state}</td>
              <td>{r.results?.accepted?.toFixed(3) ?? '—'}</td>
              <td>{r.results?.latency ? `${r.results.latency.meanCycles.toFixed(1)} cycles (${r.results.latency.meanNs.toFixed(0)} ns)` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown && (
        <div className="run-report" data-testid="traffic-report">
          <h3>
            {shown.title}: {shown.state}
          </h3>
          {shown.results?.error && <p className="error">{shown.results.error}</p>}
          {shown.results?.books && (
            <p>
              offered {shown.results.offered}, accepted {shown.results.accepted?.toFixed(3)}
              {shown.results.saturated ? ' (saturated)' : ''}; latency mean {shown.results.latency?.meanCycles.toFixed(1)}, p99{' '}
              {shown.results.latency?.p99Cycles.toFixed(0)} cycles; books: {shown.results.books.injected} injected = {shown.results.books.delivered} delivered +{' '}
              {Object.values(shown.results.books.discarded).reduce((a, b) => a + b, 0)} discarded + {shown.results.books.inFlight} in flight (
              {shown.results.books.balanced ? 'balanced' : 'NOT balanced'})
            </p>
          )}
          {series && <VegaPlot spec={series} label="accepted throughput over time" />}
        </div>
      )}
      {sweep && <VegaPlot spec={sweep} label="latency against offered load" />}
    </section>
  );
}
