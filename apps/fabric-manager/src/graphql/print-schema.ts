import { INestApplication } from '@nestjs/common';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { join } from 'node:path';

/** The committed schema file: clients and reviewers read the API from it. */
export const SCHEMA_FILE = join(__dirname, '../../schema.gql').replace(/[\\/]dist[\\/]apps[\\/]/, '/apps/');

export function printServiceSchema(app: INestApplication): string {
  const { schema } = app.get(GraphQLSchemaHost);
  return `# Generated from the code by "npm run schema:generate"; do not edit by hand.\n\n${printSchema(lexicographicSortSchema(schema))}\n`;
}
