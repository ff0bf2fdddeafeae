/**
 * The executable schema: type definitions read from the top-level `schema.graphql` (the single
 * source, also fed to codegen) plus the resolver map. The file is found relative to this module,
 * which sits three levels below the package root both as `src/graphql/schema/schema.ts` and as
 * `dist/graphql/schema/schema.js`.
 */
import { readFileSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import type { Context } from '../request/context.js';
import { resolvers } from './resolvers/index.js';

/** Path of schema.graphql. */
export const SCHEMA_FILE = new URL('../../../schema.graphql', import.meta.url);

/** The schema's SDL text. */
export function readTypeDefs(): string {
  return readFileSync(SCHEMA_FILE, 'utf8');
}

/** Builds the executable schema. */
export function buildSchema(): GraphQLSchema {
  return makeExecutableSchema<Context>({
    typeDefs: readTypeDefs(),
    resolvers: resolvers as never,
  });
}
