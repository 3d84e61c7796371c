import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A generation's unreachable endpoints are records (issue 55): `{ kind: 'processors', slice,
 * processors: [96, …] }`, `{ kind: 'destinations', source, destinations }`, `{ kind: 'terminals',
 * router }`, `{ kind: 'multicast', group, reason }` — where generations stored before held each as a
 * slice and a line of text. This reads the old text once, here, so that nothing after has to.
 */
export class UnreachableRecords1764748800000 implements MigrationInterface {
  name = 'UnreachableRecords1764748800000';

  async up(q: QueryRunner): Promise<void> {
    await rewriteUnreachable(q, (u) => (typeof u.kind === 'string' ? u : recordOfText(Number(u.slice), String(u.processors))));
  }

  async down(q: QueryRunner): Promise<void> {
    await rewriteUnreachable(q, (u) => (typeof u.kind === 'string' ? textOfRecord(u) : u));
  }
}

type Stored = Record<string, unknown>;

/** Rewrites every stored generation's `verification.unreachable` entry by `change`; rows without any are left as they are. */
export async function rewriteUnreachable(q: QueryRunner, change: (u: Stored) => Stored): Promise<void> {
  const postgres = q.connection.options.type === 'postgres';
  const rows = (await q.query(`SELECT "id", "verification" FROM "config_generation" WHERE "verification" LIKE '%"unreachable":[{%'`)) as {
    id: number;
    verification: string;
  }[];
  for (const row of rows) {
    const verification = JSON.parse(row.verification) as { unreachable?: Stored[] };
    if (!Array.isArray(verification.unreachable)) continue;
    verification.unreachable = verification.unreachable.map(change);
    await q.query(`UPDATE "config_generation" SET "verification" = ${postgres ? '$1' : '?'} WHERE "id" = ${postgres ? '$2' : '?'}`, [
      JSON.stringify(verification),
      row.id,
    ]);
  }
}

/** The record an old line of text stood for (the four ways engines wrote them). */
function recordOfText(slice: number, text: string): Stored {
  const multicast = /^multicast group (\d+): (.*)$/s.exec(text);
  if (multicast) return { kind: 'multicast', group: Number(multicast[1]), reason: multicast[2] };
  const terminals = /^the terminals of (.+) \(a dead router\)$/.exec(text);
  if (terminals) return { kind: 'terminals', router: terminals[1] };
  const pair = /^(.+) → (.*)$/.exec(text);
  if (pair) return { kind: 'destinations', source: pair[1], destinations: pair[2] === '' ? [] : pair[2].split(', ') };
  const processors: number[] = [];
  for (const part of text.split(', ')) {
    if (part === '') continue;
    const [from, to] = part.split('–').map(Number);
    for (let p = from; p <= (to ?? from); p++) processors.push(p);
  }
  return { kind: 'processors', slice, processors };
}

/** The line of text a record was stored as before. */
function textOfRecord(u: Stored): Stored {
  switch (u.kind) {
    case 'multicast':
      return { slice: 0, processors: `multicast group ${String(u.group)}: ${String(u.reason)}` };
    case 'terminals':
      return { slice: 0, processors: `the terminals of ${String(u.router)} (a dead router)` };
    case 'destinations':
      return { slice: 0, processors: `${String(u.source)} → ${(u.destinations as string[]).join(', ')}` };
    default: {
      const list = u.processors as number[];
      const parts: string[] = [];
      for (let i = 0; i < list.length;) {
        let j = i;
        while (j + 1 < list.length && list[j + 1] === list[j] + 1) j++;
        parts.push(i === j ? `${list[i]}` : `${list[i]}–${list[j]}`);
        i = j + 1;
      }
      return { slice: u.slice, processors: parts.join(', ') };
    }
  }
}
