/**
 * The server behind a real shared cache: Debian's nginx with `proxy_cache`, told nothing about
 * what to keep, so the server's own headers decide. A path question asked with GET (plain, as a
 * browser or CDN sends it: no preflight header, no content type) is answered the second time by
 * nginx without reaching the server, also as an automatic persisted query; questions about saved
 * analyses reach the server every time, so an update is seen at once. Requests that reached the
 * server are counted with its own `chess_paths_http_requests_total{route="graphql"}`, read
 * directly from its /metrics, never through the proxy.
 *
 * Without /usr/sbin/nginx the proxy tests are skipped with a message, except in CI (`CI` set),
 * where they fail (`.ci/run` installs nginx).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CachingProxy, NGINX, startCachingProxy } from './support/nginx.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/** What a path answer may be kept for: a year, and it never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** An answer over HTTP: status, headers and the body as text. */
interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

let t: TestServer;
let proxy: CachingProxy;

const skipProxy = !existsSync(NGINX) && !process.env.CI;
if (skipProxy) console.warn(`Skipping the caching-proxy tests: ${NGINX} is missing (apt-get install -y nginx).`);

beforeAll(async () => {
  t = await startTestServer();
  if (!skipProxy) proxy = await startCachingProxy(t.url);
});

afterAll(async () => {
  await proxy?.stop();
  await t?.close();
});

/** A plain GET of /graphql with `params` in the query string. */
async function get(
  base: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${base}/graphql?${new URLSearchParams(params)}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A JSON POST of /graphql (what a mutation needs); returns the parsed body. */
async function post(base: string, query: string, variables?: Record<string, unknown>) {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { data?: any; errors?: { message: string }[] };
}

/** Requests the server has answered on /graphql, all methods and statuses. */
function reachedServer(): Promise<number> {
  return t.metric('chess_paths_http_requests_total', { route: 'graphql' });
}

/** The answer's data, after checking there were no errors. */
function dataOf(answer: Answer): any {
  const body = JSON.parse(answer.text);
  expect(body.errors).toBeUndefined();
  return body.data;
}

describe.skipIf(skipProxy)('GET path questions through a caching proxy', () => {
  it('are answered by the proxy the second time, without reaching the server', async () => {
    const params = { query: '{shortestPaths(query:{piece:KNIGHT,from:["b1"],to:["g8"]}){distance pathCount}}' };
    const before = await reachedServer();
    const first = await get(proxy.url, params);
    const second = await get(proxy.url, params);
    expect(await reachedServer()).toBe(before + 1);

    expect(first.status).toBe(200);
    expect(dataOf(first).shortestPaths.distance).toBe(4);
    expect(first.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(first.headers.get('etag')).toBeTruthy();
    expect(first.headers.get('x-cache-status')).toBe('MISS');

    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('x-cache-status')).toBe('HIT');
  });

  it('with variables and an operation name: kept per query string, so other variables reach the server', async () => {
    const query = 'query Knight($q: PathQuery!) { shortestPaths(query: $q) { distance pathCount } }';
    const params = (to: string) => ({
      query,
      variables: JSON.stringify({ q: { piece: 'KNIGHT', from: ['b1'], to: [to] } }),
      operationName: 'Knight',
    });
    const before = await reachedServer();
    const first = await get(proxy.url, params('g8'));
    const second = await get(proxy.url, params('g8'));
    expect(await reachedServer()).toBe(before + 1);
    expect(first.status).toBe(200);
    expect(dataOf(first).shortestPaths.distance).toBe(4);
    expect(first.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(first.headers.get('x-cache-status')).toBe('MISS');
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('x-cache-status')).toBe('HIT');

    // b1 to c3 is one knight move: another answer, from the server.
    const other = await get(proxy.url, params('c3'));
    expect(await reachedServer()).toBe(before + 2);
    expect(other.headers.get('x-cache-status')).toBe('MISS');
    expect(dataOf(other).shortestPaths.distance).toBe(1);
  });

  it('as an automatic persisted query: the unknown hash is not kept, the registered one is', async () => {
    const query = '{shortestPaths(query:{piece:BISHOP,from:["c1"],to:["h6"]}){distance pathCount}}';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const hashOnly = { extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash } }) };
    const before = await reachedServer();

    const unknown = await get(proxy.url, hashOnly);
    const unknownBody = JSON.parse(unknown.text);
    expect(unknownBody.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(unknown.headers.get('cache-control')).toMatch(/\bno-store\b/);
    expect(unknown.headers.get('x-cache-status')).toBe('MISS');

    const registered = await get(proxy.url, { query, ...hashOnly });
    expect(registered.status).toBe(200);
    expect(dataOf(registered).shortestPaths.distance).toBe(1);
    expect(registered.headers.get('cache-control')).toBe(IMMUTABLE);

    // The same URL as the refused one: it reaches the server (the refusal was not kept), then is kept.
    const byHash = await get(proxy.url, hashOnly);
    expect(byHash.status).toBe(200);
    expect(byHash.headers.get('x-cache-status')).toBe('MISS');
    expect(dataOf(byHash)).toEqual(dataOf(registered));
    expect(await reachedServer()).toBe(before + 3);

    const again = await get(proxy.url, hashOnly);
    expect(again.status).toBe(200);
    expect(again.text).toBe(byHash.text);
    expect(again.headers.get('x-cache-status')).toBe('HIT');
    expect(await reachedServer()).toBe(before + 3);
  });
});

describe.skipIf(skipProxy)('GET questions about saved analyses through a caching proxy', () => {
  it('reach the server every time, so an update is seen at once', async () => {
    let before = await reachedServer();
    const saved = await post(
      proxy.url,
      'mutation { saveAnalysis(input: { title: "t", queries: [{ piece: KING, from: ["e1"], to: ["e8"] }] }) { analysis { id } editToken } }',
    );
    expect(saved.errors).toBeUndefined();
    expect(await reachedServer()).toBe(before + 1);
    const { analysis, editToken } = saved.data.saveAnalysis;
    const params = { query: `{analysis(id:${JSON.stringify(analysis.id)}){title}}` };

    before = await reachedServer();
    const answers = [await get(proxy.url, params), await get(proxy.url, params)];
    expect(await reachedServer()).toBe(before + 2);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(dataOf(answer).analysis.title).toBe('t');
      expect(answer.headers.get('cache-control')).toMatch(/\bno-store\b/);
      expect(answer.headers.get('x-cache-status')).not.toBe('HIT');
    }

    const updated = await post(
      proxy.url,
      'mutation ($id: ID!, $editToken: String!) { updateAnalysis(id: $id, editToken: $editToken, input: { title: "u" }) { title } }',
      { id: analysis.id, editToken },
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateAnalysis.title).toBe('u');

    before = await reachedServer();
    const after = await get(proxy.url, params);
    expect(await reachedServer()).toBe(before + 1);
    expect(after.status).toBe(200);
    expect(dataOf(after).analysis.title).toBe('u');
    expect(after.headers.get('x-cache-status')).not.toBe('HIT');
  });
});

describe('conditional GET straight to the server', () => {
  it('answers 304 with no body when If-None-Match names the current ETag', async () => {
    const params = { query: '{shortestPaths(query:{piece:ROOK,from:["a1"],to:["h8"]}){distance pathCount}}' };
    const first = await get(t.url, params);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();

    const revalidated = await get(t.url, params, { 'if-none-match': etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');
  });
});
