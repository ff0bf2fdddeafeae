/**
 * The Cache-Control of every answer, over real HTTP: a GET answer made only of path questions
 * (shortestPaths, shortestPathsBatch, position and what lies under them) without errors is
 * cacheable for a year and immutable; analyses, mutations, introspection, POST answers, batches
 * and answers with errors are `no-store`; PATH_CACHE_CONTROL changes the header or (`no-store`)
 * turns caching off. The ETag and 304 of cacheable answers are checked here too, as a client sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const PATHS = '{ shortestPaths(query: { piece: KNIGHT, from: ["b1"], to: ["g8"] }) { distance pathCount } }';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: true });
});
afterAll(async () => {
  await t?.close();
});

/** A plain GET, as a browser, a CDN or urql sends it. */
async function get(server: TestServer, query: string, variables?: unknown, headers: Record<string, string> = {}) {
  const params = new URLSearchParams({ query });
  if (variables !== undefined) params.set('variables', JSON.stringify(variables));
  const res = await fetch(`${server.url}/graphql?${params}`, { headers });
  return { res, text: await res.text() };
}

describe('GET answers of path questions', () => {
  it('are public, a year long and immutable, with an ETag, for every kind of path question', async () => {
    const documents = [
      PATHS,
      '{ shortestPathsBatch(queries: [{ piece: ROOK, from: ["a1"], to: ["h8"] }]) { distance layers { squares } } }',
      '{ position(fen: "8/8/8/8/8/8/2r5/K7 w - - 0 1") { turn pieces { square } paths(from: "a1", to: ["b1"]) { distance overlay { ascii } paths(first: 2) { edges { node { squares } } pageInfo { hasNextPage } } } } }',
    ];
    for (const query of documents) {
      const { res, text } = await get(t, query);
      expect(res.status, query).toBe(200);
      expect(JSON.parse(text).errors, query).toBeUndefined();
      expect(res.headers.get('cache-control'), query).toBe(IMMUTABLE);
      expect(res.headers.get('etag'), query).toMatch(/^"[^"]+"$/);
      expect(res.headers.get('vary'), query).toMatch(/\bAccept\b/);
    }
  });

  it('get 304 without a body when If-None-Match names their ETag, and the full answer otherwise', async () => {
    const first = await get(t, PATHS);
    const tag = first.res.headers.get('etag')!;
    const again = await get(t, PATHS, undefined, { 'if-none-match': tag });
    expect(again.res.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.res.headers.get('etag')).toBe(tag);
    const other = await get(t, PATHS, undefined, { 'if-none-match': '"something-else"' });
    expect(other.res.status).toBe(200);
    expect(other.text).toBe(first.text);
  });

  it('with variables are cacheable too, and differ by their variables', async () => {
    const query = 'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }';
    const a = await get(t, query, { q: { piece: 'KING', from: ['a1'], to: ['h8'] } });
    const b = await get(t, query, { q: { piece: 'KING', from: ['a1'], to: ['c3'] } });
    expect(JSON.parse(a.text).data.shortestPaths.distance).toBe(7);
    expect(JSON.parse(b.text).data.shortestPaths.distance).toBe(2);
    expect(a.res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(a.res.headers.get('etag')).not.toBe(b.res.headers.get('etag'));
  });
});

describe('no-store', () => {
  it('for anything that touches analyses', async () => {
    const saved = await t.gql(
      'mutation { saveAnalysis(input: { title: "t", queries: [{ piece: KING, from: ["e1"], to: ["e8"] }] }) { analysis { id } editToken } }',
    );
    expect(saved.body.errors).toBeUndefined();
    const id = saved.body.data.saveAnalysis.analysis.id;
    for (const query of [
      `{ analysis(id: "${id}") { title results { distance } } }`,
      '{ analyses(first: 1) { totalCount } }',
      `{ ${PATHS.slice(1, -1)} analysis(id: "${id}") { title } }`,
    ]) {
      const { res, text } = await get(t, query);
      expect(res.status, query).toBe(200);
      expect(JSON.parse(text).errors, query).toBeUndefined();
      expect(res.headers.get('cache-control'), query).toBe('no-store');
      expect(res.headers.get('etag'), query).toBeNull();
    }
  });

  it('for answers with an error, even a partial one', async () => {
    const { res, text } = await get(
      t,
      '{ good: shortestPaths(query: { piece: KING, from: ["e4"], to: ["e6"] }) { distance } bad: shortestPaths(query: { piece: KING, from: ["e9"], to: ["e6"] }) { distance } }',
    );
    expect(res.status).toBe(200);
    expect(JSON.parse(text).data).toEqual({ good: { distance: 2 }, bad: null });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('for answers that read the schema, even beside path questions', async () => {
    for (const query of [
      `{ __schema { queryType { name } } ${PATHS.slice(1, -1)} }`,
      `{ ...F } fragment F on Query { __type(name: "Piece") { name } ${PATHS.slice(1, -1)} }`,
    ]) {
      const { res, text } = await get(t, query);
      expect(JSON.parse(text).errors, query).toBeUndefined();
      expect(res.headers.get('cache-control'), query).toBe('no-store');
    }
  });

  it('for POST answers, batches and introspection', async () => {
    const post = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: PATHS }),
    });
    expect(post.status).toBe(200);
    expect(post.headers.get('cache-control')).toBe('no-store');
    const batch = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: PATHS }, { query: PATHS }]),
    });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('cache-control')).toBe('no-store');
    const introspection = await get(t, '{ __schema { queryType { name } } }');
    expect(introspection.res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('what shared caches key on', () => {
  it('gives each representation (JSON, graphql-response+json) its own ETag', async () => {
    const json = await get(t, PATHS, undefined, { accept: 'application/json' });
    const gql = await get(t, PATHS, undefined, { accept: 'application/graphql-response+json' });
    expect(json.text).toBe(gql.text);
    expect(json.res.headers.get('etag')).not.toBe(gql.res.headers.get('etag'));
  });

  it('varies on Origin whenever CORS names origins, and allows every origin alike with *', async () => {
    const listed = await startTestServer({ database: false, env: { CORS_ORIGINS: 'https://a.example' } });
    const any = await startTestServer({ database: false, env: { CORS_ORIGINS: '*' } });
    try {
      // Without an Origin (a CDN filling its cache) and with one: a cache must keep them apart.
      for (const origin of [undefined, 'https://a.example', 'https://b.example']) {
        const { res } = await get(listed, PATHS, undefined, origin ? { origin } : {});
        expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
        expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
        expect(res.headers.get('access-control-allow-origin')).toBe(origin === 'https://a.example' ? origin : null);
      }
      // With *, one kept answer serves every origin.
      expect((await get(any, PATHS)).res.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await Promise.all([listed.close(), any.close()]);
    }
  });
});

describe('PATH_CACHE_CONTROL', () => {
  it('sets the header of cacheable answers, and no-store turns HTTP caching off', async () => {
    const day = await startTestServer({ database: false, env: { PATH_CACHE_CONTROL: 'public, max-age=86400' } });
    const off = await startTestServer({ database: false, env: { PATH_CACHE_CONTROL: 'no-store' } });
    try {
      expect((await get(day, PATHS)).res.headers.get('cache-control')).toBe('public, max-age=86400');
      const uncached = await get(off, PATHS);
      expect(uncached.res.headers.get('cache-control')).toBe('no-store');
      expect(uncached.res.headers.get('etag')).toBeNull();
    } finally {
      await Promise.all([day.close(), off.close()]);
    }
  });
});
