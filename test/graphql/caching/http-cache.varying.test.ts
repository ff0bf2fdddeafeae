/**
 * What varies between identical requests never reaches a shared cache as `public`: an answer that
 * selects `PathResult.cached` (false when solved, true once stored: from a question's third ask) is `no-store`, while the same
 * question without it stays immutable; and the playground page served beside the API says
 * `Vary: Origin` when CORS_ORIGINS lists origins, as every other answer does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    database: true,
    env: { CORS_ORIGINS: 'https://a.example', PLAYGROUND: 'true', INTROSPECTION: 'true' },
  });
});
afterAll(async () => {
  await t?.close();
});

const get = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${t.url}/graphql?${new URLSearchParams({ query })}`, { headers });

describe('answers that vary between identical requests', () => {
  it('PathResult.cached makes a GET answer no-store, before and after the answer is stored', async () => {
    const query = '{ shortestPaths(query: { piece: QUEEN, from: ["c3"], to: ["h7"] }) { distance cached } }';
    const first = await get(query);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('etag')).toBeNull();
    expect((await first.json()).data.shortestPaths).toEqual({ distance: 2, cached: false });
    // Asked twice, the cache writer stores it; then the same URL answers true: still not kept by anyone.
    expect((await (await get(query)).json()).data.shortestPaths).toEqual({ distance: 2, cached: false });
    await t.server.settle();
    const third = await get(query);
    expect((await third.json()).data.shortestPaths).toEqual({ distance: 2, cached: true });
    expect(third.headers.get('cache-control')).toBe('no-store');
  });

  it('the same question without cached stays public and immutable', async () => {
    const res = await get('{ shortestPaths(query: { piece: QUEEN, from: ["c3"], to: ["h7"] }) { distance } }');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(res.headers.get('etag')).toMatch(/^"/);
  });
});

describe('Vary: Origin with a list of origins', () => {
  it('is on the playground page, beside Accept and Accept-Encoding, for any origin or none', async () => {
    const origins: (string | undefined)[] = [undefined, 'https://a.example', 'https://b.example'];
    for (const origin of origins) {
      const headers: Record<string, string> = { accept: 'text/html', ...(origin ? { origin } : {}) };
      const res = await fetch(`${t.url}/graphql`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const vary = (res.headers.get('vary') ?? '').split(',').map((v) => v.trim());
      expect(vary).toEqual(expect.arrayContaining(['Origin', 'Accept', 'Accept-Encoding']));
      const allowed = res.headers.get('access-control-allow-origin');
      expect(allowed).toBe(origin === 'https://a.example' ? origin : null);
    }
  });

  it('is on the viewer page too', async () => {
    const res = await fetch(`${t.url}/`, { headers: { origin: 'https://a.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary') ?? '').toMatch(/\bOrigin\b/);
  });
});
