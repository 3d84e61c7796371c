import { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { DocumentNode, FragmentDefinitionNode, GraphQLError, GraphQLSchema, Kind, SchemaMetaFieldDef, SelectionSetNode, TypeMetaFieldDef } from 'graphql';
import { ComplexityEstimator, fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { GraphQLErrorCode } from './graphql-errors';
import { OperationCost } from './operation-cost';

/**
 * A list field costs its page size times what each item costs: `chips(first: 500) { ports(first:
 * 64) { id } }` is 500 × 64 leaf fields, and is refused before it runs. This keeps one query from
 * walking a 32K fabric's 900,000 ports.
 */
const pagedEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const first = typeof args.first === 'number' ? args.first : undefined;
  if (first === undefined) return undefined;
  return 1 + first * Math.max(1, childComplexity);
};

/** Introspection is priced by what it returns, the schema, whatever part of it is selected: a
 * hundred aliased `__schema` fields would otherwise answer megabytes for a few points. */
const introspectionEstimator: ComplexityEstimator = ({ field }) => {
  if (field === SchemaMetaFieldDef) return OperationCost.introspectionSchema;
  if (field === TypeMetaFieldDef) return OperationCost.introspectionType;
  return undefined;
};

/** A query refused for its shape is the client's mistake: HTTP 400, not 500. */
const REFUSED = { http: { status: 400 } };

export function queryComplexityPlugin(getSchema: () => GraphQLSchema, maxComplexity: number, maxDepth: number, maxFields: number): ApolloServerPlugin {
  return {
    async requestDidStart(): Promise<GraphQLRequestListener<never>> {
      return {
        async didResolveOperation({ request, document, operation }) {
          if (!operation) return;
          const depth = selectionDepth(operation.selectionSet, fragmentsOf(document), 0);
          if (depth > maxDepth) {
            throw new GraphQLError(`query is nested ${depth} levels deep; the limit is ${maxDepth}`, {
              extensions: { code: GraphQLErrorCode.BadUserInput, reason: 'QUERY_TOO_DEEP', depth, maxDepth, ...REFUSED },
            });
          }
          let complexity: number;
          try {
            complexity = getComplexity({
              schema: getSchema(),
              operationName: request.operationName ?? undefined,
              query: document,
              variables: request.variables ?? {},
              estimators: [introspectionEstimator, fieldExtensionsEstimator(), pagedEstimator, simpleEstimator({ defaultComplexity: 1 })],
              // Pricing itself walks the query: bounded too.
              maxQueryNodes: PRICING_NODES,
            });
          } catch (error) {
            // Its own refusals, and variables that do not fit their types (it reads them to price
            // page sizes), are the client's mistakes: thrown from here as they were, they were 500s.
            if (!(error instanceof GraphQLError)) throw error;
            const tooLarge = /maximum allowed number of nodes/.test(error.message);
            throw new GraphQLError(
              tooLarge ? `query selects more than ${maxFields} fields (aliases and fragments counted where used); the limit is ${maxFields}` : error.message,
              {
                nodes: error.nodes,
                extensions: {
                  code: GraphQLErrorCode.BadUserInput,
                  reason: tooLarge ? 'QUERY_TOO_LARGE' : 'VARIABLE_INVALID',
                  ...(tooLarge ? { maxFields } : {}),
                  ...REFUSED,
                },
              },
            );
          }
          if (complexity > maxComplexity) {
            throw new GraphQLError(`query costs ${complexity} points; the limit is ${maxComplexity}. Ask for smaller pages (first) or fewer nested lists.`, {
              extensions: { code: GraphQLErrorCode.BadUserInput, reason: 'QUERY_TOO_COMPLEX', complexity, maxComplexity, ...REFUSED },
            });
          }
          if (fieldCount(operation.selectionSet, fragmentsOf(document), maxFields + 1) > maxFields) {
            throw new GraphQLError(tooManyFields(maxFields), {
              extensions: { code: GraphQLErrorCode.BadUserInput, reason: 'QUERY_TOO_LARGE', maxFields, ...REFUSED },
            });
          }
        },
      };
    },
  };
}

/** Nodes the pricing may walk before it gives up (the field limit is the tighter bound on what runs). */
const PRICING_NODES = 100_000;

const tooManyFields = (maxFields: number) =>
  `query selects more than ${maxFields} fields (aliases and fragments counted where used); the limit is ${maxFields}`;

function fragmentsOf(document: DocumentNode): FragmentDefinitionNode[] {
  return document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION);
}

/**
 * The fields the operation selects, each alias and each use of a fragment counted, up to `limit`
 * (past it the count stops). Introspection fields are left out: they are priced by the schema.
 */
function fieldCount(set: SelectionSetNode | undefined, fragments: FragmentDefinitionNode[], limit: number, depth = 0): number {
  if (!set || depth > 64) return 0;
  let n = 0;
  for (const selection of set.selections) {
    if (n >= limit) break;
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      n += 1 + fieldCount(selection.selectionSet, fragments, limit - n, depth + 1);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      n += fieldCount(selection.selectionSet, fragments, limit - n, depth + 1);
    } else {
      const fragment = fragments.find((f) => f.name.value === selection.name.value);
      n += fieldCount(fragment?.selectionSet, fragments, limit - n, depth + 1);
    }
  }
  return n;
}

function selectionDepth(set: SelectionSetNode | undefined, fragments: FragmentDefinitionNode[], depth: number): number {
  if (!set) return depth;
  let max = depth;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      // Introspection (__schema, __type) is bounded by the schema, not the fabric: tools such as
      // the Apollo explorer nest it 15 deep, and must work.
      if (selection.name.value.startsWith('__')) continue;
      max = Math.max(max, selectionDepth(selection.selectionSet, fragments, depth + 1));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, selectionDepth(selection.selectionSet, fragments, depth));
    } else {
      const fragment = fragments.find((f) => f.name.value === selection.name.value);
      if (fragment && depth < 64) max = Math.max(max, selectionDepth(fragment.selectionSet, fragments, depth));
    }
  }
  return max;
}
