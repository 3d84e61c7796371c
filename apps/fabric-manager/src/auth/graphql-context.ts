import type { Request } from 'express';
import type { ApiKey } from './api-key.entity';

/** What every resolver sees: the HTTP request (queries, mutations) or the WebSocket connection's
 * parameters (subscriptions), and the key once the guard has checked it. */
export interface GraphQLContext {
  req?: Request;
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
