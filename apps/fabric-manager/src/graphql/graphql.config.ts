import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriverConfig } from '@nestjs/apollo';
import { GraphQLSchema } from 'graphql';
import { AuthException } from '../auth/auth.exception';
import { ApiKeysService } from '../auth/api-keys.service';
import { GraphQLContext, bearerToken } from '../auth/graphql-context';
import { WeftConfig } from '../config/weft-config';
import { formatGraphQLError } from './graphql-errors';
import { introspectionKeyPlugin } from './introspection-key.plugin';
import { GraphQLJSONObject } from './json.scalar';
import { queryComplexityPlugin } from './query-complexity.plugin';
import { metricsPlugin } from '../metrics/metrics.plugin';
import type { MetricsService } from '../metrics/metrics.service';

/**
 * Code-first GraphQL at /graphql (a browser's GET there gets weft's own explorer, console/console-assets.ts), and
 * subscriptions over graphql-ws on the same path. The subscription's key is checked when the
 * socket opens (connection_init payload `{ "Authorization": "Bearer …" }`), so a bad key is
 * refused before any operation runs.
 */
export function graphqlConfig(config: WeftConfig, keys: ApiKeysService, metrics: MetricsService): ApolloDriverConfig {
  let schema: GraphQLSchema | undefined;
  return {
    autoSchemaFile: true,
    sortSchema: true,
    path: '/graphql',
    graphiql: false,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    resolvers: { JSONObject: GraphQLJSONObject },
    plugins: [
      // The explorer at /graphql is weft's own (console/console-assets.ts); Apollo's landing page loads its Sandbox from the internet.
      ApolloServerPluginLandingPageDisabled(),
      introspectionKeyPlugin(keys),
      metricsPlugin(metrics),
      queryComplexityPlugin(() => schema!, config.WEFT_MAX_QUERY_COMPLEXITY, config.WEFT_MAX_QUERY_DEPTH, config.WEFT_MAX_QUERY_FIELDS),
    ],
    transformSchema: (built: GraphQLSchema) => {
      schema = built;
      return built;
    },
    formatError: (formatted) => formatGraphQLError(formatted),
    context: ({
      req,
      res,
      connectionParams,
      extra,
    }: {
      req?: GraphQLContext['req'];
      res?: GraphQLContext['res'];
      connectionParams?: Record<string, unknown>;
      extra?: { apiKey?: GraphQLContext['apiKey']; connectionParams?: Record<string, unknown> };
    }): GraphQLContext => ({
      req,
      res,
      connectionParams: connectionParams ?? extra?.connectionParams,
      apiKey: extra?.apiKey,
    }),
    subscriptions: {
      'graphql-ws': {
        path: '/graphql',
        onConnect: async (ctx: { connectionParams?: Record<string, unknown>; extra: unknown }) => {
          const extra = ctx.extra as { apiKey?: unknown; connectionParams?: Record<string, unknown> };
          try {
            extra.apiKey = await keys.verify(bearerToken({ connectionParams: ctx.connectionParams }));
            extra.connectionParams = ctx.connectionParams;
            return true;
          } catch (error) {
            if (error instanceof AuthException) return false;
            throw error;
          }
        },
      },
    },
  };
}
