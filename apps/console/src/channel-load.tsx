// Channel load (issue 39): the expected load of a named pattern or an uploaded traffic matrix under
// the configuration in force, as a heat map on the picture and the hottest links listed.
import { useEffect, useRef, useState } from 'react';
import { FabricPicture, messageOf, Session } from './api';
import { heatColour } from './picture';
import { ErrorLine } from './ui';

const PATTERNS = ['uniform-random', 'random-permutation', 'bit-complement', 'transpose', 'tornado', 'neighbour', 'hot-region'];

interface Report {
  pattern: string;
  maximum: number;
  mean: number;
  channels: number;
  undeliverable: number;
  top: { channel: string; farEnd: string; load: number }[];
}

/** A traffic matrix from a file: JSON ([[…], …]) or CSV (a row of numbers a line). */
export function parseMatrix(text: string): number[][] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as number[][];
  return trimmed.split(/\r?\n/).map((line, i) =>
    line.split(/[,;\s]+/).map((cell, j) => {
      const v = Number(cell);
      if (!Number.isFinite(v)) throw new Error(`row ${i + 1}, column ${j + 1}: "${cell}" is not a number`);
      return v;
    }),
  );
}

export function ChannelLoad({
  session,
  fabricId,
  picture,
  show,
}: {
  session: Session;
  fabricId: string;
  picture: FabricPicture | null;
  show: (loads: Map<number, number> | null, low: number, high: number) => void;
}) {
  const [pattern, setPattern] = useState('uniform-random');
  const [matrix, setMatrix] = useState<{ name: string; rows: number[][] } | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  // The loads the heat map spans: the least and the greatest coloured.
  const [scale, setScale] = useState<{ low: number; high: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  // The run under way (issue 54 §11: off the request path, with its progress; it can be given up).
  const [running, setRunning] = useState<{ id: string; progress: number } | null>(null);
  const latest = useRef<string | null>(null);
  useEffect(() => () => void (latest.current = null), []);

  const run = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const { startChannelLoad } = await session.api.query<{ startChannelLoad: { id: string } }>(
        'mutation($input: ChannelLoadInput!) { startChannelLoad(input: $input) { id } }',
        { input: { fabricId, top: 1000, ...(matrix ? { matrix: matrix.rows } : { pattern }) } },
      );
      const id = startChannelLoad.id;
      latest.current = id;
      setRunning({ id, progress: 0 });
      let channelLoad: Report | null = null;
      while (latest.current === id) {
        const { analysisRun } = await session.api.query<{ analysisRun: { state: string; progress: number; error: string | null; channelLoad: Report | null } }>(
          'query($id: ID!) { analysisRun(id: $id) { state progress error channelLoad { pattern maximum mean channels undeliverable top { channel farEnd load } } } }',
          { id },
        );
        if (latest.current !== id) return;
        if (analysisRun.state === 'running') {
          setRunning({ id, progress: analysisRun.progress });
          await new Promise((r) => setTimeout(r, 250));
          continue;
        }
        setRunning(null);
        latest.current = null;
        if (analysisRun.state === 'failed') setError(analysisRun.error);
        channelLoad = analysisRun.channelLoad;
      }
      if (!channelLoad) return;
      setReport(channelLoad);
      // Each listed channel (by its sending end, chip:port) coloured on its cable.
      const loads = new Map<number, number>();
      if (picture && !picture.aggregated) {
        const at = new Map<string, number>();
        picture.cableA.forEach((a, j) => {
          at.set(`${picture.chipNames[a]}:${picture.cableAPort[j]}`, j);
          at.set(`${picture.chipNames[picture.cableB[j]]}:${picture.cableBPort[j]}`, j);
        });
        for (const t of channelLoad.top) {
          const j = at.get(t.channel);
          if (j !== undefined) loads.set(j, Math.max(loads.get(j) ?? 0, t.load));
        }
      }
      const shown = [...loads.values()];
      const range = shown.length > 0 ? { low: Math.min(...shown), high: Math.max(...shown) } : null;
      setScale(range);
      show(loads, range?.low ?? 0, range?.high ?? channelLoad.maximum);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const upload = async (file: File | undefined) => {
    setError(null);
    if (!file) return setMatrix(null);
    try {
      setMatrix({ name: file.name, rows: parseMatrix(await file.text()) });
    } catch (err) {
      setMatrix(null);
      setError(`${file.name}: ${messageOf(err)}`);
    }
  };

  return (
    <form className="load-form" onSubmit={run}>
      <h3>Channel load</h3>
      <select aria-label="pattern" value={pattern} onChange={(e) => setPattern(e.target.value)} disabled={matrix !== null}>
        {PATTERNS.map((p) => (
          <option key={p}>{p}</option>
        ))}
      </select>
      <label className="upload">
        or a traffic matrix <input aria-label="traffic matrix" type="file" accept=".json,.csv,.txt" onChange={(e) => void upload(e.target.files?.[0])} />
      </label>
      <button type="submit" disabled={running !== null}>
        Show load
      </button>
      {running && (
        <span className="analysis-progress" data-testid="load-progress">
          <progress max={1} value={running.progress} /> {Math.round(running.progress * 100)}%{' '}
          <button
            type="button"
            onClick={() => {
              const id = running.id;
              latest.current = null;
              setRunning(null);
              void session.api.query('mutation($id: ID!) { cancelAnalysis(id: $id) { state } }', { id }).catch((err: unknown) => setError(messageOf(err)));
            }}
          >
            Cancel
          </button>
        </span>
      )}
      {report && (
        <button
          type="button"
          onClick={() => {
            setReport(null);
            setScale(null);
            show(null, 0, 0);
          }}
        >
          Clear
        </button>
      )}
      <ErrorLine error={error} />
      {report && (
        <div data-testid="channel-load">
          <p>
            {report.pattern}: busiest channel {report.maximum.toFixed(3)} of an injection link, mean {report.mean.toFixed(3)} over {report.channels} channels
            {report.undeliverable > 0 ? `; ${report.undeliverable.toFixed(3)} undeliverable` : ''}.
            {picture?.aggregated ? ' Open a cell to see the heat on its cables.' : ''}
          </p>
          {scale && <HeatLegend low={scale.low} high={scale.high} />}
          <ol className="hottest">
            {report.top.slice(0, 10).map((t) => (
              <li key={t.channel}>
                {t.channel} → {t.farEnd}: {t.load.toFixed(3)}
              </li>
            ))}
          </ol>
        </div>
      )}
    </form>
  );
}

/** The heat map's key: its colours from the least load shown to the greatest, in loads of an injection link. */
function HeatLegend({ low, high }: { low: number; high: number }) {
  // One load shown everywhere: one colour (the scale's middle, as the picture draws it).
  const even = high - low < 5e-4;
  const stops = Array.from({ length: 11 }, (_, i) => `${heatColour(i / 10)} ${i * 10}%`).join(', ');
  return (
    <div className="heat-legend" data-testid="heat-legend">
      <span>{low.toFixed(3)}</span>
      <span className="heat-scale" style={{ background: even ? heatColour(0.5) : `linear-gradient(to right, ${stops})` }} />
      <span>{high.toFixed(3)}</span>
      <small> load of an injection link; {even ? 'every channel shown carries the same' : 'colours span the loads shown'}</small>
    </div>
  );
}
