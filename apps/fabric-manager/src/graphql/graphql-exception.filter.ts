import { ArgumentsHost, Catch, Logger } from '@nestjs/common';
import { GqlArgumentsHost, GqlContextType, GqlExceptionFilter } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { GraphQLErrorCode, toGraphQLError } from './graphql-errors';

/** The GraphQL edge: every exception a resolver throws leaves as a coded GraphQL error. */
@Catch()
export class GraphQLExceptionFilter implements GqlExceptionFilter {
  private readonly logger = new Logger('GraphQL');

  catch(exception: unknown, host: ArgumentsHost): GraphQLError | void {
    if (host.getType<GqlContextType>() !== 'graphql') throw exception;
    const error = toGraphQLError(exception);
    if (error.extensions.code === GraphQLErrorCode.InternalServerError) {
      const info = GqlArgumentsHost.create(host).getInfo<{ fieldName?: string }>();
      this.logger.error({ err: exception, field: info?.fieldName }, 'resolver failed');
    }
    return error;
  }
}
