// Events of a fabric (issue 39): stored and live, filtered by kind, acknowledged with a note; and the audit log.
import { useEffect, useState } from 'react';
import { EVENT_FIELDS, FabricEvent, mayOperate, messageOf, Session } from './api';
import { ErrorLine } from './ui';

export function Events({ session, fabricId, live }: { session: Session; fabricId: string; live: readonly FabricEvent[] }) {
  const [stored, setStored] = useState<FabricEvent[]>([]);
  const [kind, setKind] = useState('');
  const [unacknowledged, setUnacknowledged] = useState(false);
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    session.api
      .query<{ events: { edges: { node: FabricEvent }[] } }>(
        `query($id: ID, $kinds: [FabricEventKind!], $un: Boolean) { events(fabricId: $id, kinds: $kinds, unacknowledged: $un, first: 500) { edges { node { ${EVENT_FIELDS} acknowledgedBy acknowledgementNote } } } }`,
        { id: fabricId, kinds: kind ? [kind] : undefined, un: unacknowledged ? true : undefined },
      )
      .then((d) => setStored(d.events.edges.map((e) => e.node).reverse()))
      .catch((e: unknown) => setError(messageOf(e)));
  }, [session, fabricId, kind, unacknowledged, version, live.length]);

  const kinds = [...new Set([...stored, ...live].map((e) => e.kind))].sort();
  const acknowledge = async (id: string) => {
    setError(null);
    try {
      await session.api.query('mutation($input: AcknowledgeEventInput!) { acknowledgeEvent(input: $input) { id } }', {
        input: { id, note: notes[id] || null },
      });
      setVersion((v) => v + 1);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <section className="event-log">
      <ErrorLine error={error} />
      <label>
        kind{' '}
        <select aria-label="event kind" value={kind} onChange={(e) => setKind(e.target.value)}>
          <option value="">all</option>
          {kinds.map((k) => (
            <option key={k}>{k}</option>
          ))}
        </select>
      </label>{' '}
      <label>
        <input type="checkbox" checked={unacknowledged} onChange={(e) => setUnacknowledged(e.target.checked)} /> only those not acknowledged
      </label>
      <table>
        <tbody>
          {stored.map((e) => (
            <tr key={e.id} data-kind={e.kind} className={e.kind === 'GENERATION_REJECTED' ? 'alarm' : undefined}>
              <td>{new Date(e.wallTime).toLocaleString()}</td>
              <td>
                <b>{e.kind}</b>
              </td>
              <td>{e.chip ? `${e.chip}${e.port !== null ? `:${e.port}` : ''}` : ''}</td>
              <td>
                <code>{JSON.stringify(e.details)}</code>
              </td>
              <td>
                {e.acknowledgedAt ? (
                  `acknowledged${e.acknowledgementNote ? `: ${e.acknowledgementNote}` : ''}`
                ) : mayOperate(session.role) ? (
                  <>
                    <input
                      aria-label={`note for event ${e.id}`}
                      placeholder="note"
                      value={notes[e.id] ?? ''}
                      onChange={(x) => setNotes({ ...notes, [e.id]: x.target.value })}
                    />
                    <button onClick={() => acknowledge(e.id)}>Acknowledge</button>
                  </>
                ) : (
                  'not acknowledged'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  outcome: string;
  arguments: Record<string, unknown>;
}

export function Audit({ session }: { session: Session }) {
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    session.api
      .query<{ auditEntries: { edges: { node: AuditEntry }[] } }>('{ auditEntries(first: 500) { edges { node { id at actor action outcome arguments } } } }')
      .then((d) => setEntries(d.auditEntries.edges.map((e) => e.node).reverse()))
      .catch((e: unknown) => setError(messageOf(e)));
  }, [session]);
  return (
    <section className="audit">
      <h2>Audit log</h2>
      <ErrorLine error={error} />
      <table>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{new Date(e.at).toLocaleString()}</td>
              <td>{e.actor}</td>
              <td>
                <b>{e.action}</b>
              </td>
              <td>{e.outcome}</td>
              <td>
                <code>{JSON.stringify(e.arguments)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
