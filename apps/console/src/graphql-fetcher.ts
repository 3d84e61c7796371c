// One fetcher for the console and the explorer: queries and mutations over HTTP, subscriptions over
// graphql-ws on the same origin, both authenticated with the API key ("Authorization: Bearer …").
import { createClient, type Client } from 'graphql-ws';

export interface GraphQLRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string | null;
}

export interface GraphQLResult<T = Record<string, unknown>> {
  data?: T | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

export const graphqlUrl = () => `${window.location.origin}/graphql`;
const wsUrl = () => graphqlUrl().replace(/^http/, 'ws');

export async function post<T>(request: GraphQLRequest, headers: Record<string, string>): Promise<GraphQLResult<T>> {
  const response = await fetch(graphqlUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(request),
  });
  return (await response.json()) as GraphQLResult<T>;
}

/** A graphql-ws client for `authorization`, made once and kept while the key stays the same. */
let ws: { client: Client; authorization: string } | null = null;
export function wsClient(authorization: string): Client {
  if (ws && ws.authorization === authorization) return ws.client;
  ws?.client.dispose();
  const client = createClient({ url: wsUrl(), connectionParams: authorization ? { Authorization: authorization } : {}, lazy: true, retryAttempts: 5 });
  ws = { client, authorization };
  return client;
}

/** Subscribes to `request`, each result to `next`; returns the unsubscribe. */
export function subscribe<T>(
  request: GraphQLRequest,
  authorization: string,
  next: (result: GraphQLResult<T>) => void,
  error: (e: unknown) => void,
): () => void {
  return wsClient(authorization).subscribe<T>(
    { query: request.query, variables: request.variables, operationName: request.operationName ?? undefined },
    { next: (r) => next(r as GraphQLResult<T>), error, complete: () => undefined },
  );
}
