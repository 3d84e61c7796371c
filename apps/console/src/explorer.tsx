// The GraphQL explorer at /graphql (issue 39): GraphiQL from npm, served by weft itself, with the
// API key as a header and subscriptions over graphql-ws — nothing loaded from outside the machine.
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { GraphiQL } from 'graphiql';
import type { Fetcher, FetcherOpts, FetcherParams } from '@graphiql/toolkit';
import { createRoot } from 'react-dom/client';
import { post, wsClient } from './graphql-fetcher';
import { storedKey } from './session';

/** HTTP for queries and mutations; graphql-ws for subscriptions, with the headers' Authorization as its connection parameter. */
const fetcher: Fetcher = (params: FetcherParams, opts?: FetcherOpts) => {
  const headers = (opts?.headers ?? {}) as Record<string, string>;
  const authorization = headers.Authorization ?? headers.authorization ?? '';
  if (/^\s*subscription\b/.test(params.query) || /\bsubscription\s+\w*\s*[({]/.test(params.query)) {
    const client = wsClient(authorization);
    return {
      [Symbol.asyncIterator]() {
        return client.iterate({ query: params.query, variables: params.variables ?? undefined, operationName: params.operationName ?? undefined });
      },
    } as AsyncIterable<never>;
  }
  return post({ query: params.query, variables: params.variables ?? undefined, operationName: params.operationName }, headers) as never;
};

const key = storedKey();
const defaultHeaders = JSON.stringify({ Authorization: `Bearer ${key ?? '<your API key>'}` }, null, 2);
const defaultQuery = `# weft's GraphQL API. Put your API key in the Authorization header below
# (the console's sign-in fills it in), then run:
{
  fabrics {
    edges { node { id name family chipCount linkCount } }
  }
}
`;

createRoot(document.getElementById('explorer')!).render(
  <GraphiQL
    fetcher={fetcher}
    defaultHeaders={defaultHeaders}
    initialHeaders={defaultHeaders}
    defaultQuery={defaultQuery}
    isHeadersEditorEnabled
    defaultEditorToolsVisibility="headers"
  />,
);
