/**
 * Unexpected failures over real HTTP: INTERNAL_SERVER_ERROR without message or stack trace in
 * production, no stack trace in any answer by default, work cancelled because its client went
 * away not counted as one, and the message and stack trace kept outside production.
 */

import * as engine from '@chess-paths/engine';
import { describe, expect, it, vi } from 'vitest';
import { mazeQuery } from '../../../packages/engine/test/support/maze.js';
import { onlyError } from '../../support/error-assertions.js';
import { startTestServer } from '../../support/test-server.js';

describe('unexpected failures', () => {
  const failing = {
    ...engine,
    solveBatch(): never {
      throw new Error('engine exploded at /secret/path.ts:42');
    },
  };

  it('are INTERNAL_SERVER_ERROR without message or stack trace in production', async () => {
    const prod = await startTestServer({ database: false, env: { NODE_ENV: 'production' }, deps: { engine: failing } });
    try {
      const res = await prod.gql('{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { distance } }');
      const error = onlyError(res);
      expect(error.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error.message).toBe('Internal server error');
      expect(JSON.stringify(res.body)).not.toMatch(/secret|stacktrace|at /);
      // Bad input still gets its full message in production.
      const bad = await prod.gql('{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["z9"] }) { distance } }');
      expect(onlyError(bad).message).toBe('query.to[0]: "z9" is not a square on an 8 x 8 board');
      expect(await prod.metric('chess_paths_graphql_errors_total', { code: 'INTERNAL_SERVER_ERROR' })).toBe(1);
      expect(await prod.metric('chess_paths_graphql_errors_total', { code: 'BAD_USER_INPUT' })).toBe(1);
    } finally {
      await prod.close();
    }
  });

  it('by default (npm start) nothing carries a stack trace: not a syntax error, not the persisted-query handshake', async () => {
    const prod = await startTestServer({ database: false });
    try {
      const syntax = await prod.gql('{ nope {');
      expect(onlyError(syntax).extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
      const hash = 'ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38';
      const extensions = encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }));
      const handshake = await fetch(`${prod.url}/graphql?extensions=${extensions}`);
      const text = await handshake.text();
      expect(JSON.parse(text).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      for (const body of [JSON.stringify(syntax.body), text]) expect(body).not.toMatch(/stacktrace|node_modules|\.js:/);
    } finally {
      await prod.close();
    }
  });

  it('do not include the work cancelled because its client went away', async () => {
    const server = await startTestServer({ database: false, env: { RESULT_MEMO_SIZE: '0' } });
    try {
      const query = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { pathCount distances } }';
      const abort = new AbortController();
      // The client goes away once the server's loader has begun solving the batch.
      const { batchSize } = server.server.metrics;
      const observe = batchSize.observe.bind(batchSize);
      const solving = new Promise<void>((resolve) => {
        vi.spyOn(batchSize, 'observe').mockImplementationOnce((...args) => {
          resolve();
          return observe(...args);
        });
      });
      const sent = fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { q: Array.from({ length: 64 }, (_, i) => mazeQuery(i)) } }),
        signal: abort.signal,
      }).catch(() => undefined);
      await solving;
      abort.abort();
      await sent;
      // The server finishes with the cancelled request (its fields fail with REQUEST_CANCELLED, and
      // are counted once its answer, which no one reads, is made), then answers the next one.
      await vi.waitFor(async () => expect(await server.metric('chess_paths_graphql_errors_total')).toBeGreaterThan(0), {
        timeout: 30_000,
        interval: 20,
      });
      expect(await server.metric('chess_paths_graphql_errors_total', { code: 'REQUEST_CANCELLED' })).toBeGreaterThan(0);
      expect((await server.gql('{ __typename }')).body).toEqual({ data: { __typename: 'Query' } });
      expect(await server.metric('chess_paths_graphql_errors_total', { code: 'INTERNAL_SERVER_ERROR' })).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('keep their message (and a stack trace) outside production', async () => {
    const dev = await startTestServer({ database: false, env: { NODE_ENV: 'development' }, deps: { engine: failing } });
    try {
      const res = await dev.gql('{ shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { distance } }');
      const error = onlyError(res);
      expect(error.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error.message).toContain('engine exploded');
      expect(error.extensions?.stacktrace).toEqual(expect.any(Array));
    } finally {
      await dev.close();
    }
  });
});
