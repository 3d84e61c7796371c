// Traffic runs and sweeps (issue 39): start a run (or a sweep: one run a load, one after another),
// its progress, its report and the plots of its time series and of latency against offered load.
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

export function Traffic({ session, fabricId }: { session: Session; fabricId: string }) {
  const [runs, setRuns] = useState<Run[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const [form, setForm] = useState({ pattern: 'uniform-random', loads: '0.3', sampleCycles: '5000' });
  const [queue, setQueue] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const { trafficRuns } = await session.api.query<{ trafficRuns: Run[] }>(`query($input: FabricIdInput!) { trafficRuns(input: $input) { ${RUN_FIELDS} } }`, {
      input: { fabricId },
    });
    setRuns(trafficRuns);
    return trafficRuns;
  }, [session, fabricId]);

  const start = useCallback(
    async (load: number) => {
      const { startTrafficRun } = await session.api.query<{ startTrafficRun: { id: string } }>(
        'mutation($input: StartTrafficRunInput!) { startTrafficRun(input: $input) { id } }',
        { input: { fabricId, mode: 'steady-state', pattern: form.pattern, load, sampleCycles: Number(form.sampleCycles) } },
      );
      setOpen(startTrafficRun.id);
    },
    [session, fabricId, form.pattern, form.sampleCycles],
  );

  // Poll while a run is running; a sweep starts its next load when the fabric is free.
  useEffect(() => {
    let stop = false;
    const tick = async () => {
      try {
        const list = await refresh();
        const running = list.some((r) => r.state === 'running');
        if (!running && queue.length > 0) {
          const [next, ...rest] = queue;
          setQueue(rest);
          await start(next);
        }
        if (!stop && (running || queue.length > 0)) setTimeout(tick, 1000);
      } catch (e) {
        setError(messageOf(e));
        setQueue([]);
      }
    };
    void tick();
    return () => {
      stop = true;
    };
  }, [refresh, start, queue]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const loads = form.loads.split(',').map((v) => Number(v.trim()));
    const bad = loads.find((l) => !(l > 0 && l <= 1));
    if (bad !== undefined) return setError(`each load must be a fraction of capacity in (0, 1], got ${bad}`);
    setQueue(loads);
  };

  const shown = runs.find((r) => r.id === open) ?? null;
  // Latency against offered load: every finished steady-state run of the pattern shown (a sweep's runs among them).
  const sweep = useMemo(() => {
    const pattern = shown?.pattern ?? form.pattern;
    const points = runs
      .filter((r) => r.pattern === pattern && r.state === 'finished' && r.results?.latency && r.results.offered !== undefined)
      .map((r) => ({ offered: r.results!.offered!, accepted: r.results!.accepted!, latency: r.results!.latency!.meanCycles }));
    if (points.length < 2) return null;
    return {
      $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
      title: `${pattern}: latency against offered load`,
      width: 360,
      height: 200,
      data: { values: points },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'offered', type: 'quantitative', title: 'offered load (fraction of capacity)' },
        y: { field: 'latency', type: 'quantitative', title: 'mean latency (cycles)' },
        tooltip: [{ field: 'offered' }, { field: 'accepted' }, { field: 'latency' }],
      },
    };
  }, [runs, shown, form.pattern]);
  const series = useMemo(
    () =>
      shown?.results?.series?.length
        ? {
            $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
            title: `run ${shown.id}: accepted throughput over time`,
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
        <form className="traffic-form" onSubmit={submit}>
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
          <button type="submit">Run</button> <small>(several loads, comma-separated: a sweep, one run after another)</small>
        </form>
      )}
      {queue.length > 0 && <p>Sweep: {queue.length} loads still to run.</p>}
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
                <RunLink id={r.id} open={setOpen} />
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
            Run #{shown.id}: {shown.state}
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
