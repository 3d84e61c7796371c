import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { GraphQLContext } from './graphql-context';

/** The API key the guard accepted for this request. */
export const CurrentKey = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => GqlExecutionContext.create(context).getContext<GraphQLContext>().apiKey,
);
