import type { ErrorRequestHandler } from 'express';

/**
 * The last Express handler: a body that is not JSON, or larger than the limit, is refused before
 * any route runs — as JSON naming what is wrong, never as Express's HTML page with a stack trace
 * and the server's paths.
 */
export const httpErrorHandler: ErrorRequestHandler = (
  error: { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string },
  _req,
  res,
  next,
) => {
  if (res.headersSent) return next(error);
  const status = error.status ?? error.statusCode ?? 500;
  const client = status >= 400 && status < 500;
  const message =
    error.type === 'entity.too.large'
      ? 'the request body is larger than the service accepts'
      : error.type === 'entity.parse.failed'
        ? 'the request body is not valid JSON'
        : client && error.expose
          ? (error.message ?? 'bad request')
          : 'internal error; the service log has the details';
  res
    .status(client ? status : 500)
    .json({ errors: [{ message, extensions: { code: client ? 'BAD_USER_INPUT' : 'INTERNAL_SERVER_ERROR', reason: error.type ?? `HTTP_${status}` } }] });
};
