import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, OperationDefinitionNode } from 'graphql';
import type { MetricsService } from './metrics.service';

/**
 * Times every GraphQL operation for weft_api_request_seconds, labelled by its root field — bounded
 * by the schema, where an operation's name is the client's to choose (a hostile one could make
 * labels without end) — its type, and whether it answered with errors.
 */
export function metricsPlugin(metrics: MetricsService): ApolloServerPlugin {
  return {
    async requestDidStart() {
      const began = performance.now();
      let operation = 'unparsed';
      let type = 'unknown';
      return {
        async didResolveOperation({ document, operationName }) {
          const definition = document.definitions.find(
            (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
          );
          if (!definition) return;
          type = definition.operation;
          const first = definition.selectionSet.selections.find((s) => s.kind === Kind.FIELD);
          operation = first && first.kind === Kind.FIELD ? first.name.value : 'fragment';
        },
        async willSendResponse({ response }) {
          const errors = response.body.kind === 'single' && (response.body.singleResult.errors?.length ?? 0) > 0;
          metrics.request(operation, type, errors ? 'error' : 'ok', (performance.now() - began) / 1000);
        },
      };
    },
  };
}
