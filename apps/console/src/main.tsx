// weft's admin console (issue 39): a client of the GraphQL API, served by the service itself.
import { StrictMode, useCallback, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Api, ApiError, EVENT_FIELDS, FabricEvent, FabricPicture, FabricSummary, mayOperate, PICTURE_QUERY, Role, Session } from './api';
import { ChannelLoad } from './channel-load';
import { ChipView } from './chip';
import { Drills } from './drills';
import { Audit, Events } from './events';
import { Generations } from './generations';
import { Traffic } from './traffic';
import { PictureView, Selection } from './picture';
import type { WeftPictureHook } from './picture-hook';
import { storedKey, storeKey } from './session';
import './console.css';
import { ErrorLine } from './ui';

declare global {
  interface Window {
    weftPicture?: WeftPictureHook;
  }
}

async function signIn(key: string): Promise<Session> {
  const api = new Api(key);
  const { currentKey } = await api.query<{ currentKey: { name: string; role: Role } }>('{ currentKey { name role } }');
  return { api, role: currentKey.role, name: currentKey.name };
}

function SignIn({ onSession }: { onSession: (s: Session) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      const session = await signIn(key.trim());
      storeKey(key.trim());
      onSession(session);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <form className="sign-in" onSubmit={submit}>
      <h1>weft</h1>
      <p>
        Sign in with an API key. The service printed an admin key at its first start (saved in data/admin-key); make more with <code>npx weft keys create</code>
        .
      </p>
      <input aria-label="API key" type="password" placeholder="API key" value={key} onChange={(e) => setKey(e.target.value)} autoFocus />
      <button type="submit">Sign in</button>
      <ErrorLine error={error} />
    </form>
  );
}

function Fabrics({ session, open }: { session: Session; open: (f: FabricSummary) => void }) {
  const [fabrics, setFabrics] = useState<(FabricSummary & { faults: number; generation: string; unacknowledged: number })[] | null>(null);
  const [fixture, setFixture] = useState('blackwidow/bw-r1-32');
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const { fabrics } = await session.api.query<{ fabrics: { edges: { node: FabricSummary }[] } }>(
      '{ fabrics(first: 500) { edges { node { id name family description chipCount linkCount } } } }',
    );
    const rows = await Promise.all(
      fabrics.edges.map(async ({ node }) => {
        const d = await session.api.query<{ activeFaults: unknown[]; generations: { number: number; state: string }[]; events: { totalCount: number } }>(
          'query($input: FabricIdInput!, $id: ID) { activeFaults(input: $input) { id } generations(input: $input) { number state } events(fabricId: $id, unacknowledged: true, first: 1) { totalCount } }',
          { input: { fabricId: node.id }, id: node.id },
        );
        const pushed = d.generations.filter((g) => g.state === 'pushed').pop();
        return { ...node, faults: d.activeFaults.length, generation: pushed ? `#${pushed.number}` : 'none', unacknowledged: d.events.totalCount };
      }),
    );
    setFabrics(rows);
  }, [session]);
  useEffect(() => {
    load().catch((e: unknown) => setError(String(e)));
  }, [load]);
  const act = async (what: () => Promise<unknown>) => {
    setError(null);
    try {
      await what();
      await load();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <section>
      <h2>Fabrics</h2>
      <ErrorLine error={error} />
      {!fabrics ? (
        <p>Loading…</p>
      ) : (
        <table className="fabrics">
          <thead>
            <tr>
              <th>name</th>
              <th>family</th>
              <th>chips</th>
              <th>cables</th>
              <th>faults</th>
              <th>generation in force</th>
              <th>events not acknowledged</th>
              {mayOperate(session.role) && <th />}
            </tr>
          </thead>
          <tbody>
            {fabrics.map((f) => (
              <tr key={f.id}>
                <td>
                  <button className="link" onClick={() => open(f)}>
                    {f.name}
                  </button>
                </td>
                <td>{f.family}</td>
                <td>{f.chipCount}</td>
                <td>{f.linkCount}</td>
                <td>{f.faults}</td>
                <td>{f.generation}</td>
                <td>{f.unacknowledged}</td>
                {mayOperate(session.role) && (
                  <td>
                    <button
                      onClick={() =>
                        confirm(`Delete fabric ${f.name}?`) &&
                        act(() => session.api.query('mutation($input: DeleteFabricInput!) { deleteFabric(input: $input) { id } }', { input: { id: f.id } }))
                      }
                    >
                      Delete
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayOperate(session.role) && (
        <form
          className="load"
          onSubmit={(e) => {
            e.preventDefault();
            void act(() => session.api.query('mutation($input: LoadFabricInput!) { loadFabric(input: $input) { id } }', { input: { fixture } }));
          }}
        >
          <label>
            Load a fixture <input aria-label="fixture" value={fixture} onChange={(e) => setFixture(e.target.value)} />
          </label>
          <button type="submit">Load</button>
          <label>
            or an installation file{' '}
            <input
              aria-label="installation file"
              type="file"
              accept=".json"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file)
                  void act(async () =>
                    session.api.query('mutation($input: LoadFabricInput!) { loadFabric(input: $input) { id } }', {
                      input: { installation: await file.text() },
                    }),
                  );
                e.target.value = '';
              }}
            />
          </label>
        </form>
      )}
    </section>
  );
}

interface Details {
  readonly title: string;
  readonly lines: readonly string[];
  readonly cable?: { chip: string; port: number };
  readonly chip?: string;
}

function describe(p: FabricPicture, s: Selection): Details {
  if (p.aggregated) {
    if (s.kind === 'cable')
      return {
        title: `${p.cableCounts[s.index]} cables`,
        lines: [
          `between ${p.chipNames[p.cableA[s.index]]}`,
          `and ${p.chipNames[p.cableB[s.index]]}`,
          `class: ${p.cableClasses[s.index]}`,
          `worst state: ${p.cableStates[s.index]}`,
        ],
      };
    return { title: p.chipNames[s.index], lines: [`${p.chipSizes[s.index]} chips`, `worst state: ${p.chipStates[s.index]}`, 'double-click to open it'] };
  }
  if (s.kind === 'cable') {
    const a = p.chipNames[p.cableA[s.index]];
    const b = p.chipNames[p.cableB[s.index]];
    return {
      title: `cable ${a}:${p.cableAPort[s.index]} — ${b}:${p.cableBPort[s.index]}`,
      lines: [`class: ${p.cableClasses[s.index]}`, `state: ${p.cableStates[s.index]}`],
      cable: { chip: a, port: p.cableAPort[s.index] },
    };
  }
  return { title: `chip ${p.chipNames[s.index]}`, lines: [p.chipKinds[s.index], `state: ${p.chipStates[s.index]}`], chip: p.chipNames[s.index] };
}

function FabricView({ session, fabric }: { session: Session; fabric: FabricSummary }) {
  const container = useRef<HTMLDivElement>(null);
  const view = useRef<PictureView | null>(null);
  const picture = useRef<FabricPicture | null>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [routeDetails, setRouteDetails] = useState<Details | null>(null);
  const [, setVersion] = useState(0);
  const [events, setEvents] = useState<FabricEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [legend, setLegend] = useState('');
  const [trace, setTrace] = useState({ from: '', to: '' });
  // Names the trace fields suggest: this fabric's own first and last processors (issue 54: every
  // family was offered BlackWidow's p0 and p31).
  const [traceHint, setTraceHint] = useState<{ from: string; to: string } | null>(null);
  const [tab, setTab] = useState<'picture' | 'generations' | 'events' | 'traffic'>('picture');
  /** The chip whose registers and ports are shown. */
  const [chipOpen, setChipOpen] = useState<string | null>(null);
  /** The cell of a large fabric opened to its chips (null: the whole fabric). */
  const [cell, setCell] = useState<number | null>(null);

  const fetchPicture = useCallback(
    () =>
      session.api
        .query<{ fabricPicture: FabricPicture }>(PICTURE_QUERY, { input: { fabricId: fabric.id, ...(cell === null ? {} : { cell }) } })
        .then((d) => d.fabricPicture),
    [session, fabric.id, cell],
  );

  const select = useCallback((s: Selection) => {
    setRouteDetails(null);
    setSelection(s);
  }, []);
  const openCell = useCallback((k: number) => {
    setSelection(null);
    setCell(k);
  }, []);
  // What is selected, read from the picture in force (a fault or a push updates it in place).
  const details = routeDetails ?? (selection && picture.current ? describe(picture.current, selection) : null);

  useEffect(() => {
    let live = true;
    const began = performance.now();
    if (container.current) container.current.dataset.ready = 'false';
    fetchPicture()
      .then((p) => {
        if (!live || !container.current) return;
        picture.current = p;
        setTraceHint(p.traceExamples.length === 2 ? { from: p.traceExamples[0], to: p.traceExamples[1] } : null);
        setLegend(
          p.aggregated
            ? `${p.layout} — ${p.totalChips} chips and ${p.totalCables} cables, drawn as ${p.chipNames.length} cells of neighbouring chips and the bundles of cables between them; double-click a cell to open it`
            : p.cell !== null
              ? `${p.layout} — cell ${p.cellLabel}: its chips, the cables touching them and the chips at their far ends`
              : p.layout,
        );
        const element = container.current;
        view.current = new PictureView(
          element,
          p,
          select,
          () => {
            element.dataset.firstPaintMs = String(Math.round(performance.now() - began));
            element.dataset.ready = 'true';
          },
          openCell,
        );
        window.weftPicture = {
          cableIndex: (a, aPort) =>
            p.cableA.findIndex((x, j) => (p.chipNames[x] === a && p.cableAPort[j] === aPort) || (p.chipNames[p.cableB[j]] === a && p.cableBPort[j] === aPort)),
          cableState: (j) => picture.current!.cableStates[j],
          clearPoint: (j) => view.current!.clearPoint(j),
          chipPoint: (name) => view.current!.chipPoint(p.chipNames.indexOf(name)),
          routeCables: () => view.current!.routeCables(),
          loadedCables: () => view.current!.loadedCables(),
          zoom: (factor) => view.current!.zoom(factor),
          openCell,
        };
      })
      .catch((e: unknown) => setError(String(e)));
    return () => {
      live = false;
      view.current?.kill();
      view.current = null;
    };
  }, [fetchPicture, select, openCell]);

  // Events live: each one listed as it comes (once, by id); a fault or a push recolours the picture.
  const refetch = useRef(fetchPicture);
  refetch.current = fetchPicture;
  useEffect(
    () =>
      session.api.subscribe<{ fabricEvents: FabricEvent }>(
        `subscription($id: ID) { fabricEvents(fabricId: $id) { ${EVENT_FIELDS} } }`,
        { id: fabric.id },
        ({ fabricEvents: e }) => {
          setEvents((list) => (list.some((x) => x.id === e.id) ? list : [e, ...list].slice(0, 200)));
          if (['FAULT_DECLARED', 'FAULT_CLEARED', 'GENERATION_PUSHED', 'LINK_DOWN', 'LINK_UP'].includes(e.kind))
            void refetch.current().then((p) => {
              picture.current = p;
              view.current?.update(p);
              setVersion((v) => v + 1);
            });
        },
        setError,
      ),
    [session, fabric.id],
  );

  const declare = async () => {
    if (!details) return;
    setError(null);
    try {
      const input = details.cable
        ? { fabricId: fabric.id, kind: 'link', chip: details.cable.chip, port: details.cable.port, note: 'declared from the console' }
        : { fabricId: fabric.id, kind: 'router', chip: details.chip, note: 'declared from the console' };
      await session.api.query('mutation($input: DeclareFaultInput!) { declareFault(input: $input) { id } }', { input });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  const runTrace = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const { routeTrace } = await session.api.query<{ routeTrace: { hops: { chip: string; inPort: number; outPort: number }[] } }>(
        'query($input: RouteTraceInput!) { routeTrace(input: $input) { hops { chip inPort outPort } } }',
        { input: { fabricId: fabric.id, source: trace.from, destination: trace.to } },
      );
      const cables: number[] = [];
      for (const hop of routeTrace.hops) {
        for (const port of [hop.inPort, hop.outPort]) {
          const j = window.weftPicture!.cableIndex(hop.chip, port);
          if (j >= 0 && !cables.includes(j)) cables.push(j);
        }
      }
      view.current?.showRoute(cables);
      setRouteDetails({ title: `route ${trace.from} → ${trace.to}`, lines: routeTrace.hops.map((h) => `${h.chip}: in ${h.inPort}, out ${h.outPort}`) });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };

  return (
    <section className="fabric">
      <h2>
        {fabric.name} <small>{fabric.family}</small>
      </h2>
      <nav className="tabs">
        {(
          [
            ['picture', 'Picture'],
            ['generations', 'Generations'],
            ['events', 'Events'],
            ['traffic', 'Traffic'],
          ] as const
        ).map(([t, title]) => (
          <button key={t} className={tab === t ? 'tab active' : 'tab'} onClick={() => setTab(t)}>
            {title}
          </button>
        ))}
      </nav>
      <ErrorLine error={error} />
      {tab === 'generations' && <Generations session={session} fabricId={fabric.id} />}
      {tab === 'events' && <Events session={session} fabricId={fabric.id} live={events} />}
      {tab === 'traffic' && <Traffic session={session} fabricId={fabric.id} />}
      <p className="legend" hidden={tab !== 'picture'}>
        Drawn {legend}. Scroll to zoom, drag to pan; click a chip or a cable.{' '}
        {cell !== null && (
          <button className="link" onClick={() => setCell(null)}>
            Back to the whole fabric
          </button>
        )}
      </p>
      <div className="fabric-body" hidden={tab !== 'picture'}>
        <div className="picture" ref={container} data-testid="picture" />
        <aside>
          <form className="trace" onSubmit={runTrace}>
            <h3>Route trace</h3>
            <input
              aria-label="from"
              placeholder={traceHint ? `from (e.g. ${traceHint.from})` : 'from (a processor)'}
              value={trace.from}
              onChange={(e) => setTrace({ ...trace, from: e.target.value })}
            />
            <input
              aria-label="to"
              placeholder={traceHint ? `to (e.g. ${traceHint.to})` : 'to (a processor)'}
              value={trace.to}
              onChange={(e) => setTrace({ ...trace, to: e.target.value })}
            />
            <button type="submit">Trace</button>
          </form>
          <ChannelLoad
            session={session}
            fabricId={fabric.id}
            picture={picture.current}
            show={(loads, low, high) => (loads ? view.current?.showLoads(loads, low, high) : view.current?.clearLoads())}
          />
          {details && (
            <div className="details" data-testid="details">
              <h3>{details.title}</h3>
              <ul>
                {details.lines.map((l) => (
                  <li key={l}>{l}</li>
                ))}
              </ul>
              {details.chip && <button onClick={() => setChipOpen(details.chip!)}>Open chip</button>}{' '}
              {mayOperate(session.role) && (details.cable || details.chip) && <button onClick={declare}>Declare fault</button>}
            </div>
          )}
          <div className="events" data-testid="events">
            <h3>Events (live)</h3>
            <ol>
              {events.map((e) => (
                <li key={e.id} data-kind={e.kind} className={e.kind === 'GENERATION_REJECTED' ? 'alarm' : undefined}>
                  <b>{e.kind}</b> {e.chip ? `${e.chip}${e.port !== null ? `:${e.port}` : ''}` : ''} <time>{new Date(e.wallTime).toLocaleTimeString()}</time>
                  {e.kind === 'GENERATION_REJECTED' && (
                    <div>
                      generation {String(e.details.generation)} not pushed: {String(e.details.reason)}
                    </div>
                  )}
                </li>
              ))}
            </ol>
          </div>
        </aside>
      </div>
      {tab === 'picture' && chipOpen && picture.current && (
        <ChipView key={chipOpen} session={session} fabricId={fabric.id} name={chipOpen} picture={picture.current} close={() => setChipOpen(null)} />
      )}
    </section>
  );
}

function Console() {
  const [session, setSession] = useState<Session | null>(null);
  const [restoring, setRestoring] = useState(storedKey() !== null);
  const [fabric, setFabric] = useState<FabricSummary | null>(null);
  const [page, setPage] = useState<'fabrics' | 'drills' | 'audit'>('fabrics');
  useEffect(() => {
    const key = storedKey();
    if (key === null) return;
    signIn(key)
      .then(setSession)
      .catch(() => storeKey(null))
      .finally(() => setRestoring(false));
  }, []);
  if (restoring) return <p>Signing in…</p>;
  if (!session) return <SignIn onSession={setSession} />;
  return (
    <>
      <header>
        <b>weft</b>
        <nav>
          <button
            className="link"
            onClick={() => {
              setFabric(null);
              setPage('fabrics');
            }}
          >
            Fabrics
          </button>
          <button className="link" onClick={() => setPage('drills')}>
            Drills
          </button>
          {session.role === 'admin' && (
            <button className="link" onClick={() => setPage('audit')}>
              Audit log
            </button>
          )}
          <a href="/graphql">GraphQL explorer</a>
        </nav>
        <span className="who">
          {session.name} ({session.role})
        </span>
        <button
          onClick={() => {
            storeKey(null);
            setSession(null);
          }}
        >
          Sign out
        </button>
      </header>
      <main>
        {page === 'drills' ? (
          <Drills session={session} />
        ) : page === 'audit' ? (
          <Audit session={session} />
        ) : fabric ? (
          <FabricView key={fabric.id} session={session} fabric={fabric} />
        ) : (
          <Fabrics session={session} open={setFabric} />
        )}
      </main>
    </>
  );
}

createRoot(document.getElementById('console')!).render(
  <StrictMode>
    <Console />
  </StrictMode>,
);
