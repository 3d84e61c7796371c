import { getIntrospectionQuery } from 'graphql';
import { readFileSync } from 'node:fs';
import { SCHEMA_FILE, printServiceSchema } from '../../apps/fabric-manager/src/graphql/print-schema';
import { TestService } from './support/test-service';

describe('the committed GraphQL schema', () => {
  it('is the schema the code serves (run "npm run schema:generate" after changing the API)', async () => {
    const service = await TestService.start();
    try {
      expect(printServiceSchema(service.app)).toBe(readFileSync(SCHEMA_FILE, 'utf8'));
    } finally {
      await service.stop();
    }
  });

  it('answers the standard introspection query that GraphQL tools and the explorer send', async () => {
    const service = await TestService.start();
    try {
      const result = await service.gql<{ __schema: { queryType: { name: string } } }>(getIntrospectionQuery(), {}, service.bootstrapKey!);
      expect(result.errors).toBeUndefined();
      expect(result.data!.__schema.queryType.name).toBe('Query');
    } finally {
      await service.stop();
    }
  });
});
