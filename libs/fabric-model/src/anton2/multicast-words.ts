/**
 * An Anton 2 ASIC's multicast table as its `multicastTable` register holds it (chips/anton2-asic.ts):
 * entry after entry, [key (group × 2 + tree), endpoint count, endpoints…, channel count, channels…]
 * — the copies the ASIC makes of a packet of that tree (§2.3, Table 2: tables in the endpoint and
 * channel adapters).
 */
import { ANTON2_CHANNEL_ADAPTERS, ANTON2_ENDPOINT_ADAPTERS, ANTON2_MULTICAST_ENTRIES } from '../chips/anton2-asic';

export interface Anton2MulticastEntry {
  /** Local endpoint adapters that each get a copy. */
  readonly endpoints: readonly number[];
  /** Channel adapters (ASIC ports) a copy goes on by. */
  readonly channels: readonly number[];
}

/** A table as register words, by key. */
export function anton2MulticastWords(table: ReadonlyMap<number, Anton2MulticastEntry>): number[] {
  const words: number[] = [];
  for (const [key, entry] of [...table].sort((a, b) => a[0] - b[0]))
    words.push(key, entry.endpoints.length, ...entry.endpoints, entry.channels.length, ...entry.channels);
  return words;
}

/** The `multicastTable` register's words as entries, or what is wrong with them. */
export function parseAnton2MulticastWords(words: readonly number[]): Map<number, Anton2MulticastEntry> | string {
  const table = new Map<number, Anton2MulticastEntry>();
  const whole = (v: number | undefined, hi: number) => v !== undefined && Number.isInteger(v) && v >= 0 && v <= hi;
  let i = 0;
  while (i < words.length) {
    const key = words[i];
    if (!whole(key, 2 ** 30)) return `word ${i}: an entry's key (group × 2 + tree) is a whole number, got ${key}`;
    if (table.has(key)) return `word ${i}: key ${key} twice`;
    const endpoints = words[i + 1];
    if (!whole(endpoints, ANTON2_ENDPOINT_ADAPTERS)) return `word ${i + 1}: an entry names 0 to ${ANTON2_ENDPOINT_ADAPTERS} endpoints, got ${endpoints}`;
    const e = words.slice(i + 2, i + 2 + endpoints);
    if (e.length !== endpoints || !e.every((x) => whole(x, ANTON2_ENDPOINT_ADAPTERS - 1)))
      return `words ${i + 2}…: endpoints are 0 to ${ANTON2_ENDPOINT_ADAPTERS - 1}`;
    const at = i + 2 + endpoints;
    const channels = words[at];
    if (!whole(channels, ANTON2_CHANNEL_ADAPTERS)) return `word ${at}: an entry names 0 to ${ANTON2_CHANNEL_ADAPTERS} channels, got ${channels}`;
    const c = words.slice(at + 1, at + 1 + channels);
    if (c.length !== channels || !c.every((x) => whole(x, ANTON2_CHANNEL_ADAPTERS - 1)))
      return `words ${at + 1}…: channels are 0 to ${ANTON2_CHANNEL_ADAPTERS - 1}`;
    table.set(key, { endpoints: e, channels: c });
    if (table.size > ANTON2_MULTICAST_ENTRIES) return `more than the ${ANTON2_MULTICAST_ENTRIES} entries a table holds`;
    i = at + 1 + channels;
  }
  return table;
}
