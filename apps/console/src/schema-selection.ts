// A selection set for any object type, read from the schema by introspection (issue 39: the console
// shows each family's registers as the API describes them, with no family's shape of its own).
import type { Api } from './api';

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

const named = (t: TypeRef): TypeRef => (t.ofType ? named(t.ofType) : t);
const fieldsOf = new Map<string, Promise<{ name: string; type: TypeRef; args: unknown[] }[]>>();

function fields(api: Api, type: string) {
  let known = fieldsOf.get(type);
  if (!known) {
    known = api
      .query<{ __type: { fields: { name: string; type: TypeRef; args: unknown[] }[] | null } }>(
        'query($name: String!) { __type(name: $name) { fields { name args { name } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }',
        { name: type },
      )
      .then((d) => d.__type.fields ?? []);
    fieldsOf.set(type, known);
  }
  return known;
}

/** Every field of `type` without arguments, objects followed `depth` levels down. */
export async function selectionOf(api: Api, type: string, depth = 4): Promise<string> {
  const parts: string[] = [];
  for (const f of await fields(api, type)) {
    if (f.args.length > 0) continue;
    const t = named(f.type);
    if (t.kind === 'SCALAR' || t.kind === 'ENUM') parts.push(f.name);
    else if (t.kind === 'OBJECT' && depth > 0) parts.push(`${f.name} { ${await selectionOf(api, t.name!, depth - 1)} }`);
  }
  return parts.length ? parts.join(' ') : '__typename';
}
