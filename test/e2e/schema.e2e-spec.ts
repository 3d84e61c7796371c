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
});
