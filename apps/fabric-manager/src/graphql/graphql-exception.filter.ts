import { ArgumentsHost, Catch, HttpException, Logger, Optional } from '@nestjs/common';
import { GqlArgumentsHost, GqlContextType, GqlExceptionFilter } from '@nestjs/graphql';
import type { Response } from 'express';
import { GraphQLError } from 'graphql';
import { StoreOwnerService } from '../database/store-owner.service';
import { ManagerErrorCode, ManagerException } from '../database/manager.exception';
import { GraphQLErrorCode, toGraphQLError } from './graphql-errors';

/** The edges of the service: every exception a resolver throws leaves as a coded GraphQL error;
 * one thrown by an HTTP route (a health probe that is down) leaves as JSON with its status, never
 * as Express's HTML page with a stack trace. */
@Catch()
export class GraphQLExceptionFilter implements GqlExceptionFilter {
  private readonly logger = new Logger('GraphQL');

  constructor(@Optional() private readonly owner?: StoreOwnerService) {}

  catch(exception: unknown, host: ArgumentsHost): GraphQLError | void {
    if (host.getType<GqlContextType>() !== 'graphql') return this.answerHttp(exception, host);
    let error = toGraphQLError(exception);
    // Cut off because another manager took the store over while it ran (issue 54: its clients got
    // a bare internal error): what failed, failed for that — say so, and where to go.
    const refusal = error.extensions.code === GraphQLErrorCode.InternalServerError ? this.owner?.refusal() : null;
    if (refusal) error = toGraphQLError(new ManagerException(ManagerErrorCode.NotActive, refusal, { activeUrl: this.owner!.activeManager()?.url ?? null }));
    if (error.extensions.code === GraphQLErrorCode.InternalServerError) {
      const info = GqlArgumentsHost.create(host).getInfo<{ fieldName?: string }>();
      this.logger.error({ err: exception, field: info?.fieldName }, 'resolver failed');
    }
    return error;
  }

  private answerHttp(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (exception instanceof HttpException) {
      const body = exception.getResponse();
      response.status(exception.getStatus()).json(typeof body === 'string' ? { statusCode: exception.getStatus(), message: body } : body);
      return;
    }
    this.logger.error({ err: exception }, 'request failed');
    response.status(500).json({ statusCode: 500, message: 'internal error; the service log has the details' });
  }
}
