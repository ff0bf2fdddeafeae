/**
 * Checks of GraphQL error answers that the tests of the API's error paths share
 * (test/graphql/request/errors*.test.ts, test/hardening/limits.operations.test.ts): the single error of an
 * answer, and a question refused with BAD_USER_INPUT and an exact message.
 */
import { expect } from 'vitest';
import type { GqlResponse, TestServer } from './test-server.js';

/** The single error of a response. */
export function onlyError(res: GqlResponse) {
  expect(res.body.errors, JSON.stringify(res.body).slice(0, 500)).toHaveLength(1);
  return res.body.errors![0];
}

/** Asks `query` and expects one BAD_USER_INPUT error, its message `message` (or matching it); returns the error. */
export async function expectBadInput(
  server: TestServer,
  query: string,
  message: string | RegExp,
  variables?: Record<string, unknown>,
) {
  const res = await server.gql(query, variables);
  const error = onlyError(res);
  expect(error.extensions?.code).toBe('BAD_USER_INPUT');
  if (typeof message === 'string') expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
  return error;
}
