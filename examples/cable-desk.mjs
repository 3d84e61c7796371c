// An example maintenance-controller automation client for weft: it follows the event stream, and
// when a lane of a cable is decommissioned (its retries passed the threshold, paper 000 §4.4) it
// acknowledges the event and files a cable-replacement record for it.
//
//   WEFT_API_KEY=weft_… node examples/cable-desk.mjs [--url http://127.0.0.1:3000] [--records cable-replacements.jsonl]
//
// What it promises, as a supervised service:
// - every decommission is filed once, across restarts and across several desks on one fabric: a
//   desk claims an event by acknowledging it before filing, and one that finds it acknowledged by
//   another desk leaves it (a desk that crashed between its acknowledgement and its record knows the
//   event from its own claims journal, and files it when it comes back);
// - it resumes after the last event it handled (its cursor), after a restart or a lost connection;
// - an unreachable service is retried with backoff, said in one line each time; a refused key
//   ends it with exit status 1, so that a supervisor sees it fail.
//
// Files: records (JSON lines { record, fabricId, chip, port, lane, eventId, at }), and beside it
// `.cursor` (the last event handled) and `.claims` (events this desk acknowledged, one id a line).
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { clearTimeout, setTimeout } from 'node:timers';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const STREAM = `subscription($after: String) {
  fabricEvents(kinds: [LANE_DECOMMISSIONED], after: $after) { id cursor fabricId chip port lane details }
}`;
const ACK = `mutation($input: AcknowledgeEventInput!) { acknowledgeEvent(input: $input) { id } }`;

/** The server refused the key (graphql-ws closes with 4403 when onConnect says no). */
const REFUSED = new Set([4401, 4403]);

const lines = (file) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/**
 * Starts the desk; resolves to a function that stops it. `onFatal` hears an error the desk cannot
 * get past (a refused key); `onStatus` hears what it is doing about a lost connection.
 */
export function startCableDesk({
  url,
  key,
  records,
  cursorFile = `${records}.cursor`,
  claimsFile = `${records}.claims`,
  onRecord = () => {},
  onStatus = () => {},
  onFatal = () => {},
  retryMs = 250,
  maxRetryMs = 10_000,
}) {
  const http = url.replace(/\/$/, '');
  const filed = new Set(lines(records).map((l) => JSON.parse(l).eventId));
  const claimed = new Set(lines(claimsFile));
  let cursor = existsSync(cursorFile) ? readFileSync(cursorFile, 'utf8').trim() || null : null;
  let stopped = false;
  let client = null;
  let retryTimer = null;
  let failures = 0;
  let queue = Promise.resolve();

  /** true: this desk holds the acknowledgement now; false: another desk acknowledged it first. */
  const acknowledge = async (id, note) => {
    const response = await fetch(`${http}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: ACK, variables: { input: { id, note } } }),
    });
    const body = await response.json();
    if (!body.errors) return true;
    if (body.errors[0].extensions?.code === 'CONFLICT') return false;
    throw new Error(body.errors[0].message);
  };

  const handle = async (e) => {
    if (!filed.has(e.id)) {
      const record = `CR-${e.id}`;
      const ours = claimed.has(e.id);
      if (!ours) {
        // Journal first: after a crash, this desk knows the acknowledgement it may have made is its own.
        appendFileSync(claimsFile, `${e.id}\n`);
        claimed.add(e.id);
      }
      const acknowledged = await acknowledge(e.id, `cable replacement filed: ${record}`);
      if (acknowledged || ours) {
        const lane = e.lane ?? e.details.lane;
        appendFileSync(
          records,
          JSON.stringify({ record, fabricId: e.fabricId, chip: e.chip, port: e.port, lane, eventId: e.id, at: new Date().toISOString() }) + '\n',
        );
        filed.add(e.id);
        onRecord(record);
      }
    }
    cursor = e.cursor;
    writeFileSync(cursorFile, cursor);
  };

  const reconnectLater = (why) => {
    if (stopped) return;
    const wait = Math.min(maxRetryMs, retryMs * 2 ** Math.min(failures++, 10));
    onStatus(`${why}; retrying in ${(wait / 1000).toFixed(1)} s`);
    retryTimer = setTimeout(connect, wait);
  };

  function connect() {
    if (stopped) return;
    const current = createClient({
      url: `${http.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${key}` },
      // Reconnection is this desk's: it subscribes again from its own cursor, not the first one.
      retryAttempts: 0,
      on: { connected: () => (failures = 0) },
    });
    client = current;
    let ended = false;
    const end = (why) => {
      if (ended) return;
      ended = true;
      void current.dispose();
      reconnectLater(why);
    };
    current.subscribe(
      { query: STREAM, variables: { after: cursor } },
      {
        // One at a time and in order, so the cursor only ever moves past handled events.
        next: ({ data }) => {
          queue = queue.then(() => handle(data.fabricEvents)).catch((error) => end(`handling an event failed: ${error.message}`));
        },
        error: (error) => {
          const code = error?.code;
          if (REFUSED.has(code)) {
            stopped = true;
            onFatal(new Error(`the service refused the key (${error.reason || code})`));
            return;
          }
          end(`cannot reach the weft service at ${http}: ${error?.message ?? error?.reason ?? (code ? `closed (${code})` : String(error))}`);
        },
        complete: () => end('the event stream ended'),
      },
    );
  }

  connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    await queue;
    await client?.dispose();
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const key = process.env.WEFT_API_KEY;
  if (!key) {
    console.error('cable desk: set WEFT_API_KEY to an operator key (npx weft keys create --role operator)');
    process.exit(1);
  }
  const records = arg('records', 'cable-replacements.jsonl');
  const stop = startCableDesk({
    url: arg('url', 'http://127.0.0.1:3000'),
    key,
    records,
    onRecord: (r) => console.log(`filed ${r}`),
    onStatus: (s) => console.error(`cable desk: ${s}`),
    onFatal: (error) => {
      console.error(`cable desk: ${error.message}`);
      process.exit(1);
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop().then(() => process.exit(0)));
  console.log(`cable desk: following lane decommissions; records in ${records}`);
}
