import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { GqlContextType, GqlExecutionContext } from '@nestjs/graphql';
import { Observable, from, lastValueFrom } from 'rxjs';
import { GraphQLContext } from '../auth/graphql-context';
import { toGraphQLError } from '../graphql/graphql-errors';
import { AuditService } from './audit.service';

/** Writes one AuditEntry for every GraphQL mutation that got past the guard: who, what, when,
 * and how it ended. */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(private readonly audit: AuditService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<GqlContextType>() !== 'graphql') return next.handle();
    const gql = GqlExecutionContext.create(context);
    const info = gql.getInfo<{ fieldName: string; operation: { operation: string }; path: { prev?: unknown } }>();
    if (info.operation.operation !== 'mutation' || info.path.prev !== undefined) return next.handle();
    const ctx = gql.getContext<GraphQLContext>();
    const args = gql.getArgs<Record<string, unknown>>();
    return from(
      (async () => {
        try {
          const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
          await this.audit.recordOrLog(ctx.apiKey, info.fieldName, args, 'ok');
          return result;
        } catch (error) {
          await this.audit.recordOrLog(ctx.apiKey, info.fieldName, args, String(toGraphQLError(error).extensions.code));
          throw error;
        }
      })(),
    );
  }
}
