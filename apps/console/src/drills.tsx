// Drills (issue 39): the shipped ones to start, the runs with their progress, and a run's report and plot.
import { useCallback, useEffect, useState } from 'react';
import { mayOperate, messageOf, Session } from './api';
import { ErrorLine, RunLink } from './ui';

interface Shipped {
  name: string;
  description: string;
  fabric: string;
}
interface Run {
  id: string;
  drill: string;
  state: string;
  startedAt: string;
  finishedAt: string | null;
  progress: { step: string; emulatedNs: number; durationNs: number } | null;
}

export function Drills({ session }: { session: Session }) {
  const [shipped, setShipped] = useState<Shipped[]>([]);
  const [runs, setRuns] = useState<Run[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  // The report with the run it is of: another run's is never shown while the one opened loads (issue 54).
  const [report, setReport] = useState<{ id: string; text: string | null; plotSvg: string | null; state: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    const d = await session.api.query<{ shippedDrills: Shipped[]; drillRuns: Run[] }>(
      '{ shippedDrills { name description fabric } drillRuns { id drill state startedAt finishedAt progress { step emulatedNs durationNs } } }',
    );
    setShipped(d.shippedDrills);
    setRuns(d.drillRuns);
    return d.drillRuns;
  }, [session]);

  // While a run is running, its progress is polled every second; its report when it has one.
  useEffect(() => {
    let stop = false;
    const tick = async () => {
      try {
        const list = await refresh();
        if (open) {
          const { drillRun } = await session.api.query<{ drillRun: { state: string; text: string | null; plotSvg: string | null } }>(
            'query($id: ID!) { drillRun(id: $id) { state text plotSvg } }',
            { id: open },
          );
          setReport({ id: open, ...drillRun });
        }
        if (!stop && list.some((r) => r.state === 'running')) setTimeout(tick, 1000);
      } catch (e) {
        setError(messageOf(e));
      }
    };
    void tick();
    return () => {
      stop = true;
    };
  }, [refresh, session, open]);

  const start = async (name: string) => {
    setError(null);
    try {
      const { startDrill } = await session.api.query<{ startDrill: { id: string } }>(
        'mutation($input: StartDrillInput!) { startDrill(input: $input) { id } }',
        {
          input: { fixture: name },
        },
      );
      setReport(null);
      setOpen(startDrill.id);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <section className="drills">
      <h2>Drills</h2>
      <ErrorLine error={error} />
      <h3>Runs</h3>
      <table>
        <thead>
          <tr>
            <th>run</th>
            <th>drill</th>
            <th>state</th>
            <th>progress</th>
            <th>started</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id} data-run={r.id}>
              <td>
                <RunLink id={r.id} open={setOpen} />
              </td>
              <td>{r.drill}</td>
              <td>{r.state}</td>
              <td>
                {r.progress
                  ? `${r.progress.step} (${Math.round((100 * r.progress.emulatedNs) / Math.max(1, r.progress.durationNs))}% of its emulated time)`
                  : '—'}
              </td>
              <td>{new Date(r.startedAt).toLocaleTimeString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && <DrillReportView id={open} report={report?.id === open ? report : null} />}
      <h3>Shipped drills</h3>
      <ul className="shipped">
        {shipped.map((d) => (
          <li key={d.name}>
            <b>{d.name}</b> <small>({d.fabric})</small> {mayOperate(session.role) && <button onClick={() => start(d.name)}>Start {d.name}</button>}
            <br />
            {d.description}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A run's report as it is known: its state, plot and text; nothing yet while it loads. */
function DrillReportView({ id, report }: { id: string; report: { text: string | null; plotSvg: string | null; state: string } | null }) {
  return (
    <div className="report" data-testid="drill-report" data-run={id}>
      <h3>
        Run #{id}: {report?.state ?? '…'}
      </h3>
      {report?.plotSvg && <img alt="throughput and latency over the drill" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(report.plotSvg)}`} />}
      {report?.text && <pre>{report.text}</pre>}
    </div>
  );
}
