/**
 * The viewer page's link preview (src/http/viewer-preview.ts): the question the server reads from
 * a page's query string is the one the viewer itself reads (src/viewer/state.ts, compared on
 * hand-picked and random query strings); the page at `/` carries Open Graph and Twitter tags
 * whose image is that question's `/diagram.png` (which answers a PNG), or the seed example's
 * without a usable question; hostile query strings and Host headers stay text inside the tags.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { diagramQuestion } from '../../src/http/diagram-question.js';
import { escapeHtml, originOf, previewOf, SEED_PREVIEW } from '../../src/http/viewer-preview.js';
import { asksBetza, isBlankSearch, isComplete, questionFromUrl } from '../../src/viewer/state.js';
import { pngHeader } from '../support/png.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const config = loadConfig({ MAX_BOARD_SIDE: '64', LOG_LEVEL: 'silent' });

/** The diagram parameters the viewer's own reading of `search` calls for; null for the seed. */
function expectedImage(search: string): Record<string, string> | null {
  const q = questionFromUrl(search);
  if (isBlankSearch(search) || !isComplete(q)) return null;
  const image: Record<string, string> = {};
  if (q.fen) image.fen = q.fen;
  else if (asksBetza(q)) image.betza = q.betza;
  else image.piece = q.piece;
  if (q.files !== 8 || q.ranks !== 8) image.board = `${q.files}x${q.ranks}`;
  image.from = q.from.join(',');
  image.to = q.to.join(',');
  if (!q.fen && q.blocked.length > 0) image.blocked = q.blocked.join(',');
  if (q.fen && q.avoidAttacked) image.avoidAttacked = 'true';
  image.path = 'true';
  return image;
}

/** Reads the preview as the viewer would, or the seed when the question is one the door refuses. */
function checkAgainstViewer(search: string): void {
  const preview = previewOf(search, config);
  const image = expectedImage(search);
  if (image === null) {
    expect(preview).toBe(SEED_PREVIEW);
    return;
  }
  if (preview === SEED_PREVIEW) {
    // Only a question the diagram door refuses (a square off the board, a board over the limit).
    const door = { path: '/diagram.png', own: [] };
    expect(() => diagramQuestion(new URLSearchParams(image), config, door), search).toThrow();
    return;
  }
  expect(Object.fromEntries(new URLSearchParams(preview.image))).toEqual(image);
}

describe('previewOf', () => {
  it('reads a query string as the viewer does', () => {
    const fen = encodeURIComponent('4k3/8/8/3r4/8/8/8/4K3 w - - 0 1');
    const searches = [
      '',
      '?',
      '?piece=KNIGHT&from=b1&to=h8',
      '?piece=knight&from=B1,%20b1,c3&to=H8,&board=8x8',
      '?piece=ROOK&board=10x12&from=a1&to=j12&blocked=b1,a2',
      '?piece=QUEEN&board=12&from=a1&to=l12',
      '?piece=KING&board=300x5&from=a1&to=h8',
      '?piece=FAIRY&betza=NN&from=a1&to=h8',
      '?piece=FAIRY&from=a1&to=h8',
      '?piece=KING&betza=NN&from=a1&to=h8',
      `?fen=${fen}&from=e1&to=e3&avoid=1`,
      `?fen=${fen}&from=e1&to=e3&avoid=0&piece=ROOK&blocked=d4`,
      '?piece=BLACK_PAWN&from=e7&to=e1',
      '?piece=KING&from=e4',
      '?avoid=1',
      '?piece=KING&from=z99&to=a1',
      '?piece=PAWN&from=e2&to=e4',
      '?unrelated=1',
    ];
    for (const search of searches) checkAgainstViewer(search);
    expect(previewOf('?piece=KNIGHT&from=b1&to=h8', config)).toEqual({
      title: 'Shortest paths of a knight from b1 to h8',
      description: expect.any(String),
      image: 'piece=KNIGHT&from=b1&to=h8&path=true',
    });
    expect(previewOf(`?fen=${fen}&from=e1&to=e3&avoid=1`, config).title).toBe(
      'Shortest paths of the piece on e1 from e1 to e3 in a position, avoiding the attacked squares',
    );
    expect(previewOf('?piece=ROOK&board=10x12&from=a1&to=j12', config).title).toContain('on a 10 x 12 board');
  });

  it('agrees with the viewer on random query strings', () => {
    const value = fc.constantFrom('', 'e4', 'a1,h8', ' H8 ,a1,', 'KNIGHT', 'fairy', 'NN', '10x10', '8', '1', 'z9', '&');
    const key = fc.constantFrom('piece', 'board', 'from', 'to', 'blocked', 'fen', 'avoid', 'betza', 'other');
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 6 }), (pairs) => {
        const params = new URLSearchParams();
        for (const [k, v] of pairs) params.append(k, v);
        checkAgainstViewer(`?${params}`);
      }),
      { numRuns: 300 },
    );
  });

  it('escapes for HTML, and makes origins only of a well-formed Host', () => {
    expect(escapeHtml(`"><script>'&`)).toBe('&quot;&gt;&lt;script&gt;&#39;&amp;');
    const req = (host: string | undefined, proto?: string) =>
      ({ headers: { host, 'x-forwarded-proto': proto }, socket: {} }) as never;
    expect(originOf(req('chess.example:8080'), 0)).toBe('http://chess.example:8080');
    expect(originOf(req('[::1]:4000'), 0)).toBe('http://[::1]:4000');
    expect(originOf(req('chess.example', 'https'), 0)).toBe('http://chess.example');
    expect(originOf(req('chess.example', 'https, http'), 1)).toBe('https://chess.example');
    for (const host of [undefined, '', 'evil"><script>', 'a b', 'x.example/path', 'x.example:port']) {
      expect(originOf(req(host), 1)).toBe('');
    }
  });
});

describe('the viewer page at / with a link preview', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ database: false, env: { MAX_BOARD_SIDE: '64' } });
  });
  afterAll(async () => t?.close());

  /** The page's meta tags, by name or property. */
  const metaOf = (html: string): Record<string, string> =>
    Object.fromEntries(
      [...html.matchAll(/<meta (?:name|property)="([\w:]+)" content="([^"]*)">/g)].map(([, k, v]) => [
        k,
        v.replace(/&amp;/g, '&'),
      ]),
    );

  it("previews the seed example without a question, and the question's PNG with one", async () => {
    const blank = await fetch(`${t.url}/`);
    const seed = metaOf(await blank.text());
    expect(seed['og:image']).toBe(`${t.url}/diagram.png?piece=KING&from=e4&to=a1,h8&path=true`);
    expect(seed['twitter:card']).toBe('summary_large_image');
    expect(seed['twitter:image']).toBe(seed['og:image']);
    expect(seed['og:title']).toBe(SEED_PREVIEW.title);
    expect(seed['og:image:width']).toBe('1200');

    const search = '?piece=KNIGHT&board=10x10&from=b1&to=j10,a10';
    const asked = await fetch(`${t.url}/${search}`);
    expect(asked.headers.get('cache-control')).toBe('no-cache');
    const meta = metaOf(await asked.text());
    expect(meta['og:image']).toBe(`${t.url}/diagram.png?piece=KNIGHT&board=10x10&from=b1&to=j10,a10&path=true`);
    expect(meta['og:title']).toBe('Shortest paths of a knight from b1 to j10, a10 on a 10 x 10 board');
    expect(meta['og:url']).toBe(`${t.url}/${search}`);
    for (const url of [seed['og:image'], meta['og:image']]) {
      const image = await fetch(url);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(pngHeader(new Uint8Array(await image.arrayBuffer())).width).toBe(1200);
    }

    const tag = asked.headers.get('etag') as string;
    expect(tag).not.toBe(blank.headers.get('etag'));
    expect((await fetch(`${t.url}/${search}`, { headers: { 'if-none-match': tag } })).status).toBe(304);
  });

  it('keeps a hostile query string as text in the tags', async () => {
    const hostile = new URLSearchParams({
      piece: 'FAIRY',
      betza: `NN"><script>alert(1)</script>`,
      from: `a1"'><img src=x onerror=alert(2)>`,
      to: 'h8</title><script>alert(3)</script>',
      fen: '',
    });
    for (const search of [`?${hostile}`, '?piece=KING&from=e4&to=a1"><script>alert(4)</script>', '?"><b>=1']) {
      const html = await (await fetch(`${t.url}/${search}`)).text();
      expect(html).not.toMatch(/<script>alert|<img src=x|<b>/);
      expect(html.match(/<script/g)).toHaveLength(1); // the bundle's
      const lines = html.split('\n').filter((line) => line.includes('og:') || line.includes('twitter:'));
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines) expect(line).toMatch(/^<meta (name|property)="[\w:]+" content="[^"<>]*">$/);
    }
  });

  it('makes absolute URLs only of a well-formed Host header', async () => {
    const page = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = new URL(t.url);
        const req = request(
          { host: '127.0.0.1', port, path: '/?piece=ROOK&from=a1&to=h8', headers: { host } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => {
              body += chunk;
            });
            res.on('end', () => resolve(body));
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(metaOf(await page('chess.example'))['og:image']).toBe(
      'http://chess.example/diagram.png?piece=ROOK&from=a1&to=h8&path=true',
    );
    const evil = metaOf(await page('evil.example"><script>alert(5)</script>'));
    expect(evil['og:image']).toBe('/diagram.png?piece=ROOK&from=a1&to=h8&path=true');
  });
});
