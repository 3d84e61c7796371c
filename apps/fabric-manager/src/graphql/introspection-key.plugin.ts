import { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { GraphQLError, Kind, visit } from 'graphql';
import { ApiKeysService } from '../auth/api-keys.service';
import { AuthException } from '../auth/auth.exception';
import { bearerToken, GraphQLContext } from '../auth/graphql-context';
import { GraphQLErrorCode } from './graphql-errors';

/**
 * The schema is for key holders, like everything else the API answers: an operation that asks
 * for `__schema` or `__type` without a valid key is refused with 401 before it runs (`__typename`,
 * which says nothing of the schema, stays open). Resolvers check keys with the guard; introspection
 * has no resolver of ours, so it is checked here.
 */
export function introspectionKeyPlugin(keys: ApiKeysService): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart(): Promise<GraphQLRequestListener<GraphQLContext>> {
      return {
        async didResolveOperation({ document, contextValue }) {
          let introspects = false;
          visit(document, {
            [Kind.FIELD]: (node) => {
              if (node.name.value === '__schema' || node.name.value === '__type') introspects = true;
            },
          });
          if (!introspects || contextValue.apiKey) return;
          try {
            contextValue.apiKey = await keys.verify(bearerToken(contextValue));
          } catch (error) {
            if (!(error instanceof AuthException)) throw error;
            throw new GraphQLError(`introspection needs an API key: ${error.message}`, {
              extensions: { code: GraphQLErrorCode.Unauthenticated, reason: error.code, http: { status: 401 } },
            });
          }
        },
      };
    },
  };
}
