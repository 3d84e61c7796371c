// Generations of a fabric (issue 39): what triggered each and whether it was proven, the pushes
// with their progress, and the difference between any two in the chip's terms.
import { useEffect, useState } from 'react';
import { messageOf, Session } from './api';
import { ErrorLine } from './ui';

interface Generation {
  number: number;
  state: string;
  engine: string;
  createdAt: string;
  pushedAt: string | null;
  faultIds: string[];
}
interface Push {
  id: string;
  generation: number;
  fromGeneration: number | null;
  state: string;
  phases: number;
  phasesDone: number;
  writes: number;
  detail: string;
}
interface Computed {
  generation: number;
  trigger?: string;
  verified?: boolean;
  endpointsProven?: number;
}
interface Diff {
  from: number;
  to: number;
  changedRouters: number;
  changedRegisters: number;
  routers: { chip: string; changes: { register: string; target: string; meaning: string }[] }[];
}

export function Generations({ session, fabricId }: { session: Session; fabricId: string }) {
  const [generations, setGenerations] = useState<Generation[]>([]);
  const [pushes, setPushes] = useState<Push[]>([]);
  const [computed, setComputed] = useState(new Map<number, Computed>());
  const [pair, setPair] = useState<{ from: number; to: number } | null>(null);
  const [diff, setDiff] = useState<Diff | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    session.api
      .query<{ generations: Generation[]; pushes: Push[]; events: { edges: { node: { details: Computed } }[] } }>(
        `query($input: FabricIdInput!, $id: ID) {
          generations(input: $input) { number state engine createdAt pushedAt faultIds }
          pushes(input: $input) { id generation fromGeneration state phases phasesDone writes detail }
          events(fabricId: $id, kinds: [GENERATION_COMPUTED], first: 500) { edges { node { details } } } }`,
        { input: { fabricId }, id: fabricId },
      )
      .then((d) => {
        setGenerations(d.generations);
        setPushes(d.pushes);
        setComputed(new Map(d.events.edges.map(({ node }) => [node.details.generation, node.details])));
        const n = d.generations.length;
        if (n >= 2) setPair({ from: d.generations[n - 2].number, to: d.generations[n - 1].number });
      })
      .catch((e: unknown) => setError(messageOf(e)));
  }, [session, fabricId]);

  const showDiff = async () => {
    if (!pair) return;
    setError(null);
    try {
      const { generationDiff } = await session.api.query<{ generationDiff: Diff }>(
        'query($input: GenerationDiffInput!) { generationDiff(input: $input) { from to changedRouters changedRegisters routers { chip changes { register target meaning } } } }',
        { input: { fabricId, from: pair.from, to: pair.to, first: 100 } },
      );
      setDiff(generationDiff);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const numbers = generations.map((g) => g.number);
  return (
    <section className="generations">
      <ErrorLine error={error} />
      <h3>Generations</h3>
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>state</th>
            <th>triggered by</th>
            <th>proof</th>
            <th>faults routed around</th>
            <th>engine</th>
            <th>computed</th>
            <th>pushed</th>
          </tr>
        </thead>
        <tbody>
          {generations.map((g) => {
            const c = computed.get(g.number);
            return (
              <tr key={g.number} data-generation={g.number}>
                <td>{g.number}</td>
                <td>{g.state}</td>
                <td>{c?.trigger ?? '—'}</td>
                <td>{c === undefined ? '—' : c.verified ? `verified (${c.endpointsProven ?? 0} endpoints proven)` : 'failed verification'}</td>
                <td>{g.faultIds.length}</td>
                <td>{g.engine}</td>
                <td>{new Date(g.createdAt).toLocaleString()}</td>
                <td>{g.pushedAt ? new Date(g.pushedAt).toLocaleString() : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h3>Pushes</h3>
      <table>
        <thead>
          <tr>
            <th>generation</th>
            <th>from</th>
            <th>state</th>
            <th>progress</th>
            <th>register writes</th>
            <th>detail</th>
          </tr>
        </thead>
        <tbody>
          {pushes.map((p) => (
            <tr key={p.id}>
              <td>{p.generation}</td>
              <td>{p.fromGeneration ?? '—'}</td>
              <td>{p.state}</td>
              <td>
                <progress max={p.phases} value={p.phasesDone} /> {p.phasesDone}/{p.phases}
              </td>
              <td>{p.writes}</td>
              <td>{p.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {pair && (
        <div className="diff-form">
          <h3>Difference</h3>
          <label>
            from{' '}
            <select aria-label="diff from" value={pair.from} onChange={(e) => setPair({ ...pair, from: Number(e.target.value) })}>
              {numbers.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>{' '}
          <label>
            to{' '}
            <select aria-label="diff to" value={pair.to} onChange={(e) => setPair({ ...pair, to: Number(e.target.value) })}>
              {numbers.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>{' '}
          <button onClick={showDiff}>Show difference</button>
        </div>
      )}
      {diff && (
        <div className="diff" data-testid="diff">
          <p>
            Generation {diff.from} → {diff.to}: {diff.changedRegisters} registers changed on {diff.changedRouters} routers
            {diff.routers.length < diff.changedRouters ? ` (the first ${diff.routers.length} shown)` : ''}.
          </p>
          {diff.routers.map((r) => (
            <details key={r.chip} open={diff.routers.length <= 5}>
              <summary>{r.chip}</summary>
              <ul>
                {r.changes.map((c, i) => (
                  <li key={i}>
                    <code>
                      {c.register}[{c.target}]
                    </code>
                    : {c.meaning}
                  </li>
                ))}
              </ul>
            </details>
          ))}
        </div>
      )}
    </section>
  );
}
