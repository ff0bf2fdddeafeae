/**
 * A custom scalar's refusal of a literal (`mask: 12`, `from: [e4]`) is BAD_USER_INPUT, as the same
 * value in a variable is, with the scalar's own message. Asked of a server in a process of its own:
 * there graphql-js, Apollo and the scalars share one copy of graphql, so graphql-js reports the
 * scalar's error as it was thrown and Apollo files it under validation, which the in-process tests
 * (where the test runner loads a second copy, and graphql-js wraps the error) cannot show.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../../support/child-server.js';
import { tempDir } from '../../support/store-fixtures.js';

let server: ChildServer;
const dir = tempDir('chess-paths-scalars-');
beforeAll(async () => {
  server = await startChildServer({ env: { DATABASE_URL: `file:${join(dir.dir, 'x.db')}`, LOG_LEVEL: 'error' } });
});
afterAll(async () => {
  await server?.stop();
  dir.cleanup();
});

async function onlyError(query: string) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: unknown; errors: { message: string; extensions: { code: string } }[] };
  expect(body.errors).toHaveLength(1);
  return { status: res.status, ...body.errors[0] };
}

describe('a custom scalar refusing a literal, in a server of its own', () => {
  it('is BAD_USER_INPUT with the scalar’s message, the literal as written', async () => {
    const mask = await onlyError(
      '{ shortestPaths(query: { piece: ROOK, from: ["a1"], to: ["h8"], mask: 12 }) { distance } }',
    );
    expect(mask.extensions.code).toBe('BAD_USER_INPUT');
    expect(mask.message).toBe('Bitboard must be a string (a bitboard such as "0x0000000010000000"), got 12');
    const square = await onlyError('{ shortestPaths(query: { piece: ROOK, from: [e4], to: ["h8"] }) { distance } }');
    expect(square.extensions.code).toBe('BAD_USER_INPUT');
    expect(square.message).toBe('Square must be a string (a square name such as "e4"), got e4');
  });
});
