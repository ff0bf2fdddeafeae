/**
 * The response cache over real HTTP: a request answered from memoised results alone is answered
 * again from its kept response (same bytes, nothing executed: observed in /metrics), keyed by the
 * exact body and Accept header, from the second time a text comes in; anything with state or
 * errors (loader results, analyses, mutations, errors, `{ __typename }`) is never kept;
 * RESPONSE_CACHE_SIZE=0 turns it off.
 */
import { describe, expect, it } from 'vitest';
import { SEED_QUERY, startTestServer, type TestServer } from '../support/test-server.js';

const SEED = `{ shortestPaths(query: ${SEED_QUERY}) { distance cached layers { squares } overlay { ascii } } }`;

async function post(t: TestServer, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const kept = (t: TestServer) => t.metric('chess_paths_response_cache_hits_total');

describe('response cache (RESPONSE_CACHE_SIZE)', () => {
  it('replays the response of a request answered from the memo alone, byte for byte', async () => {
    const t = await startTestServer({ env: { CORS_ORIGINS: 'https://app.example' } });
    try {
      const body = JSON.stringify({ query: SEED });
      const first = await post(t, body); // solved: cached false, through the loader
      await post(t, body); // solved again and written: its second ask
      await t.server.settle();
      const second = await post(t, body); // from the SQLite cache, through the loader
      const third = await post(t, body); // from the memo: kept
      expect(JSON.parse(first.text).data.shortestPaths.cached).toBe(false);
      expect(JSON.parse(second.text).data.shortestPaths.cached).toBe(true);
      expect(third.text).toBe(second.text);
      expect(await kept(t)).toBe(0);
      const memo = await t.metric('chess_paths_memo_hits_total');

      const fourth = await post(t, body, { origin: 'https://app.example' });
      expect(fourth.status).toBe(200);
      expect(fourth.text).toBe(third.text);
      expect(fourth.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(fourth.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(await kept(t)).toBe(1);
      expect(await t.metric('chess_paths_memo_hits_total')).toBe(memo); // nothing executed

      // Another body (even only in spacing or variables) or another Accept header is another entry.
      await post(t, JSON.stringify({ query: SEED, variables: {} }));
      await post(t, body, { accept: 'application/graphql-response+json' });
      expect(await kept(t)).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('keeps the response of a text only from its second time: a text asked once keeps nothing', async () => {
    const t = await startTestServer({ database: false });
    try {
      const body = JSON.stringify({ query: SEED });
      for (let i = 0; i < 3; i++) await post(t, body); // memoised, then kept
      expect(await kept(t)).toBe(1);
      const memo = await t.metric('chess_paths_memo_hits_total');

      // The same question in a new text: answered from the memo, not kept the first time.
      const spaced = JSON.stringify({ query: ` ${SEED}` });
      const first = await post(t, spaced);
      expect(await t.metric('chess_paths_memo_hits_total')).toBe(memo + 1);
      const second = await post(t, spaced);
      expect(await t.metric('chess_paths_memo_hits_total')).toBe(memo + 2);
      expect(await kept(t)).toBe(1);
      const third = await post(t, spaced); // kept after its second answer
      expect(await kept(t)).toBe(2);
      expect(await t.metric('chess_paths_memo_hits_total')).toBe(memo + 2);
      expect(third.text).toBe(first.text);
      expect(second.text).toBe(first.text);
    } finally {
      await t.close();
    }
  });

  it('never keeps responses with errors, analyses, mutations, results from the loader, or nothing memoised', async () => {
    const t = await startTestServer({ database: false });
    try {
      const send = async (query: string, times = 3) => {
        for (let i = 0; i < times; i++) await post(t, JSON.stringify({ query }));
      };
      await send(SEED); // memoised from the second request on (no database here)
      const base = await kept(t);
      expect(base).toBe(1);

      await send(
        `{ a: shortestPaths(query: ${SEED_QUERY}) { distance } b: shortestPaths(query: { piece: KING, from: ["z9"], to: ["a1"] }) { distance } }`,
      );
      await send(`{ shortestPaths(query: ${SEED_QUERY}) { distance } analyses(first: 1) { totalCount } }`);
      await send('{ __typename }');
      await send(`mutation { deleteAnalysis(id: "x", editToken: "y") }`);
      expect(await kept(t)).toBe(base);

      // A request mixing memoised and new results is not kept; once all are memoised it is.
      const mixed = `{ a: shortestPaths(query: ${SEED_QUERY}) { distance } b: shortestPaths(query: { piece: ROOK, from: ["a1"], to: ["h8"] }) { distance } }`;
      await send(mixed, 2);
      expect(await kept(t)).toBe(base);
      await send(mixed, 1);
      expect(await kept(t)).toBe(base + 1);
    } finally {
      await t.close();
    }
  });

  it('is off with RESPONSE_CACHE_SIZE=0', async () => {
    const t = await startTestServer({ database: false, env: { RESPONSE_CACHE_SIZE: '0' } });
    try {
      for (let i = 0; i < 5; i++)
        expect(JSON.parse((await post(t, JSON.stringify({ query: SEED }))).text).data.shortestPaths.distance).toBe(4);
      expect(await kept(t)).toBe(0);
      expect(await t.metric('chess_paths_memo_hits_total')).toBe(4);
    } finally {
      await t.close();
    }
  });
});
