import type { Request, Response } from 'express';
import type { HeavyWorkOptions } from '../graphql/operation-cost';
import type { ApiKey } from './api-key.entity';

/** What every resolver sees: the HTTP request (queries, mutations) or the WebSocket connection's
 * parameters (subscriptions), and the key once the guard has checked it. */
export interface GraphQLContext {
  req?: Request;
  res?: Response;
  /** Aborted when the HTTP client goes away before its answer (heavyWorkFor). */
  gone?: AbortController;
  connectionParams?: Record<string, unknown>;
  apiKey?: ApiKey;
}

export function bearerToken(context: GraphQLContext): string | undefined {
  const header =
    (context.req?.headers?.authorization as string | undefined) ??
    (context.connectionParams?.Authorization as string | undefined) ??
    (context.connectionParams?.authorization as string | undefined);
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : header;
}

/**
 * How a resolver's heavy work is scheduled (operation-cost.ts): as its API key's, taking turns with
 * other clients' work, and given up if the HTTP client goes away before the answer.
 */
export function heavyWorkFor(context: GraphQLContext): HeavyWorkOptions {
  const res = context.res;
  if (res && !context.gone) {
    const gone = (context.gone = new AbortController());
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
  }
  return { client: clientOf(context), signal: context.gone?.signal };
}

/** Whose work a request's is, for taking turns and for what it started (an API key's id; '' before the guard has read one). */
export const clientOf = (context: GraphQLContext): string => (context.apiKey ? `key ${context.apiKey.id}` : '');
