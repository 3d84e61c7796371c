// An example maintenance-controller automation client for weft (issue 5): it follows the event
// stream, and when a lane of a cable is decommissioned (its retries passed the threshold, paper 000
// §4.4) it files a cable-replacement record and acknowledges the event with the record's number.
// It keeps the cursor of the last event it handled, so after a restart it resumes exactly there.
//
//   WEFT_API_KEY=weft_… node examples/cable-desk.mjs [--url http://127.0.0.1:3000] [--records cable-replacements.jsonl]
//
// Records are JSON lines: { record, fabricId, chip, port, lane, eventId, at }.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const STREAM = `subscription($after: String) {
  fabricEvents(kinds: [LANE_DECOMMISSIONED], after: $after) { id cursor fabricId chip port lane details }
}`;
const ACK = `mutation($input: AcknowledgeEventInput!) { acknowledgeEvent(input: $input) { id } }`;

/** Starts the desk; resolves to a function that stops it. */
export function startCableDesk({ url, key, records, cursorFile = `${records}.cursor`, onRecord = () => {} }) {
  const http = url.replace(/\/$/, '');
  const ack = async (id, note) => {
    const response = await fetch(`${http}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: ACK, variables: { input: { id, note } } }),
    });
    const body = await response.json();
    // Already acknowledged (by us before a crash, or by someone else): nothing more to do.
    if (body.errors && body.errors[0].extensions.code !== 'CONFLICT') throw new Error(body.errors[0].message);
  };
  const after = existsSync(cursorFile) ? readFileSync(cursorFile, 'utf8').trim() || null : null;
  const client = createClient({
    url: `${http.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${key}` },
  });
  let queue = Promise.resolve();
  const unsubscribe = client.subscribe(
    { query: STREAM, variables: { after } },
    {
      next: ({ data }) => {
        const e = data.fabricEvents;
        // One at a time and in order, so the cursor only ever moves past handled events.
        queue = queue.then(async () => {
          const record = `CR-${e.id}`;
          const lane = e.lane ?? e.details.lane;
          appendFileSync(
            records,
            JSON.stringify({ record, fabricId: e.fabricId, chip: e.chip, port: e.port, lane, eventId: e.id, at: new Date().toISOString() }) + '\n',
          );
          await ack(e.id, `cable replacement filed: ${record}`);
          writeFileSync(cursorFile, e.cursor);
          onRecord(record);
        });
      },
      error: (error) => console.error('cable desk: stream failed:', error),
      complete: () => {},
    },
  );
  return async () => {
    unsubscribe();
    await queue;
    await client.dispose();
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
  startCableDesk({ url: arg('url', 'http://127.0.0.1:3000'), key, records, onRecord: (r) => console.log(`filed ${r}`) });
  console.log(`cable desk: following lane decommissions; records in ${records}`);
}
