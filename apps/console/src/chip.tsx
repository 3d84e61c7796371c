// A chip (issue 39): its registers decoded, as its family's type in the API describes them, beside
// the raw words; its ports with their far ends and why a port is out of service; its faults.
import { Fragment, useCallback, useEffect, useState } from 'react';
import { FabricPicture, mayOperate, messageOf, Session } from './api';
import { selectionOf } from './schema-selection';
import { ErrorLine } from './ui';

interface Port {
  number: number;
  role: string;
  state: string;
}
interface OutOfService {
  port: number;
  designedAs: string;
  farEnd: string;
  reason: string;
  faultId: string | null;
}
interface Fault {
  id: string;
  kind: string;
  chip: string;
  port: number | null;
  note: string;
}
type Decoded = Record<string, unknown> & {
  __typename: string;
  generation: number;
  outOfService: OutOfService[];
  raw: { register: string; target: string; value: number[] }[];
};

/** A decoded value as nested lists: scalars as text, objects as name: value, lists of objects as tables. */
function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="none">—</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="none">none</span>;
    if (typeof value[0] !== 'object') return <span>{value.join(', ')}</span>;
    const keys = Object.keys(value[0] as object).filter((k) => k !== '__typename');
    return (
      <table className="decoded">
        <thead>
          <tr>
            {keys.map((k) => (
              <th key={k}>{k}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {value.map((row, i) => (
            <tr key={i}>
              {keys.map((k) => (
                <td key={k}>
                  <Value value={(row as Record<string, unknown>)[k]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  if (typeof value === 'object') return <Fields object={value as Record<string, unknown>} />;
  return <span>{String(value)}</span>;
}

function Fields({ object, skip = [] }: { object: Record<string, unknown>; skip?: string[] }) {
  return (
    <dl className="fields">
      {Object.entries(object)
        .filter(([k]) => k !== '__typename' && !skip.includes(k))
        .map(([k, v]) => (
          <Fragment key={k}>
            <dt>{k}</dt>
            <dd>
              <Value value={v} />
            </dd>
          </Fragment>
        ))}
    </dl>
  );
}

export function ChipView({
  session,
  fabricId,
  name,
  picture,
  close,
}: {
  session: Session;
  fabricId: string;
  name: string;
  picture: FabricPicture;
  close: () => void;
}) {
  const [ports, setPorts] = useState<Port[]>([]);
  const [kind, setKind] = useState('');
  const [decoded, setDecoded] = useState<Decoded | null>(null);
  const [why, setWhy] = useState<string | null>(null);
  const [faults, setFaults] = useState<Fault[]>([]);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const d = await session.api.query<{ chip: { kind: string; model: string; ports: { edges: { node: Port }[] } }; activeFaults: Fault[] }>(
      'query($id: ID!, $name: String!, $input: FabricIdInput!) { chip(fabricId: $id, name: $name) { kind model ports(first: 500) { edges { node { number role state } } } } activeFaults(input: $input) { id kind chip port note } }',
      { id: fabricId, name, input: { fabricId } },
    );
    setKind(`${d.chip.kind} (${d.chip.model})`);
    setPorts(d.chip.ports.edges.map((e) => e.node));
    setFaults(d.activeFaults.filter((f) => f.chip === name));
    if (d.chip.kind !== 'router') return;
    try {
      const input = { fabricId, chip: name };
      const { routerConfiguration } = await session.api.query<{ routerConfiguration: { __typename: string } }>(
        'query($input: RouterConfigurationInput!) { routerConfiguration(input: $input) { __typename } }',
        { input },
      );
      const selection = await selectionOf(session.api, routerConfiguration.__typename);
      const full = await session.api.query<{ routerConfiguration: Decoded }>(
        `query($input: RouterConfigurationInput!) { routerConfiguration(input: $input) { __typename ... on ${routerConfiguration.__typename} { ${selection} } } }`,
        { input },
      );
      setDecoded(full.routerConfiguration);
    } catch (e) {
      // A router no generation configures (dead, unreachable) says why.
      setWhy(messageOf(e));
    }
  }, [session, fabricId, name]);

  useEffect(() => {
    load().catch((e: unknown) => setError(messageOf(e)));
  }, [load]);

  const farEnd = (port: number) => {
    const i = picture.chipNames.indexOf(name);
    const j = picture.cableA.findIndex((a, k) => (a === i && picture.cableAPort[k] === port) || (picture.cableB[k] === i && picture.cableBPort[k] === port));
    if (j < 0) return '—';
    return picture.cableA[j] === i
      ? `${picture.chipNames[picture.cableB[j]]}:${picture.cableBPort[j]}`
      : `${picture.chipNames[picture.cableA[j]]}:${picture.cableAPort[j]}`;
  };
  const act = async (query: string, input: Record<string, unknown>) => {
    setError(null);
    try {
      await session.api.query(query, { input });
      await load();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const outOfService = new Map((decoded?.outOfService ?? []).map((o) => [o.port, o]));

  return (
    <section className="chip-view" data-testid="chip-view">
      <h3>
        {name} <small>{kind}</small>{' '}
        <button className="link" onClick={close}>
          close
        </button>
      </h3>
      <ErrorLine error={error} />
      {why && <p className="why">{why}</p>}
      <h4>Faults in force</h4>
      {faults.length === 0 ? (
        <p className="none">none</p>
      ) : (
        <ul>
          {faults.map((f) => (
            <li key={f.id}>
              {f.kind} {f.port !== null ? `port ${f.port}` : ''} {f.note}{' '}
              {mayOperate(session.role) && (
                <button onClick={() => act('mutation($input: ClearFaultInput!) { clearFault(input: $input) { id } }', { id: f.id })}>Clear fault {f.id}</button>
              )}
            </li>
          ))}
        </ul>
      )}
      {mayOperate(session.role) && kind.startsWith('router') && !faults.some((f) => f.kind === 'router') && (
        <button
          onClick={() =>
            act('mutation($input: DeclareFaultInput!) { declareFault(input: $input) { id } }', {
              fabricId,
              kind: 'router',
              chip: name,
              note: 'declared from the console',
            })
          }
        >
          Declare this router faulty
        </button>
      )}
      <h4>Ports</h4>
      <table className="ports">
        <thead>
          <tr>
            <th>port</th>
            <th>role</th>
            <th>state</th>
            <th>far end</th>
            <th>out of service</th>
          </tr>
        </thead>
        <tbody>
          {ports
            .filter((p) => p.role !== 'unused' || outOfService.has(p.number))
            .map((p) => {
              const o = outOfService.get(p.number);
              return (
                <tr key={p.number} data-port={p.number}>
                  <td>{p.number}</td>
                  <td>{p.role}</td>
                  <td>{p.state}</td>
                  <td>{farEnd(p.number)}</td>
                  <td>{o ? `${o.reason}${o.faultId ? ` (fault ${o.faultId})` : ''}` : ''}</td>
                </tr>
              );
            })}
        </tbody>
      </table>
      {decoded && (
        <div className="registers">
          <div>
            <h4>Registers of generation {decoded.generation}, decoded</h4>
            <Fields object={decoded} skip={['raw', 'outOfService', 'chip', 'generation']} />
          </div>
          <div>
            <h4>Raw words</h4>
            <table className="raw">
              <tbody>
                {decoded.raw.map((r, i) => (
                  <tr key={i}>
                    <td>
                      <code>{r.register}</code>
                    </td>
                    <td>{r.target}</td>
                    <td>
                      <code>{r.value.map((v) => `0x${(v >>> 0).toString(16)}`).join(' ')}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
