/**
 * `GET /diagram.png` on a real server: the SVG diagram of the same URL as a PNG, made on the
 * worker pool (never on the server's thread); its size (the `width` parameter, the SVG's aspect
 * ratio) and its pixels read back; the SVG door's caching (immutable, an ETag of its own, 304
 * without rasterising) and its refusals (400 plain text naming the parameter, unknown parameters
 * included, with `width` among those it takes); the width and pixel limits, the latter naming the
 * widest picture that fits; HEAD without rasterising.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PNG_MAX_PIXELS, PNG_MAX_WIDTH } from '../../src/http/diagram-route.js';
import { pngHeader, readPng } from '../support/png.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Counts the PNGs made on this thread: none may be (they are made on a worker).
const made = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/graphql/work/raster.js', async (original) => {
  const actual = await original<typeof import('../../src/graphql/work/raster.js')>();
  return {
    ...actual,
    svgToPng: (...args: Parameters<typeof actual.svgToPng>) => {
      made.count++;
      return actual.svgToPng(...args);
    },
  };
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false, env: { MAX_BOARD_SIDE: '64' } });
});
afterAll(async () => {
  await t?.close();
});

const get = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${t.url}/diagram.png?${query}`, { headers });

/** The SVG of the same question: its size in user units. */
async function svgSize(query: string): Promise<{ width: number; height: number }> {
  const svg = await (await fetch(`${t.url}/diagram.svg?${query}`)).text();
  const [width, height] = /width="([\d.]+)" height="([\d.]+)"/.exec(svg)!.slice(1).map(Number);
  return { width, height };
}

const SEED = 'piece=KING&from=e4&to=a1,h8&path=true';

describe('GET /diagram.png', () => {
  it('draws the seed as a PNG 1200 pixels wide, made on a worker, cached like the SVG', async () => {
    const counted = () => t.metric('chess_paths_http_requests_total', { route: 'diagram_png' });
    const before = await counted();
    const res = await get(SEED);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const size = await svgSize(SEED);
    expect(pngHeader(bytes)).toEqual({ width: 1200, height: Math.round((size.height * 1200) / size.width) });

    // Pixels, at points of the diagram in its user units (square 48, margin 24, pad 8).
    const png = readPng(bytes);
    const at = (x: number, y: number) => png.at(size.width, x, y);
    expect(at(1, 1)).toEqual([255, 255, 255, 255]);
    const [r, g, b] = at(24 + 4 * 48 + 24, 8 + 4 * 48 + 24 + 11); // e4, under its step number
    expect([r < 90, g > 90 && g < 140, b > 150]).toEqual([true, true, true]);
    const [or, og, ob] = at(240 - 19.2, 224 + 19.2); // the path's arrow from e4 towards d3
    expect([or > 200, og > 100 && og < 160, ob < 100]).toEqual([true, true, true]);
    expect(png.colours()).toBeGreaterThan(50);
    expect(made.count).toBe(0);

    const tag = res.headers.get('etag') as string;
    expect(tag).toMatch(/^"[\w-]+"$/);
    const svgTag = (await fetch(`${t.url}/diagram.svg?${SEED}`)).headers.get('etag');
    const narrower = (await get(`${SEED}&width=600`)).headers.get('etag');
    expect(new Set([tag, svgTag, narrower]).size).toBe(3);
    const again = await get(SEED, { 'if-none-match': tag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await again.text()).toBe('');
    await expect.poll(counted).toBe(before + 3);
  });

  it('takes a width, keeping the aspect ratio, for a position seen from Black and a fairy piece', async () => {
    const fen = encodeURIComponent('4k3/8/8/3r4/8/8/8/4K3 w - - 0 1');
    for (const query of [
      `fen=${fen}&from=e1&to=e3&avoidAttacked=true&orientation=black&path=true&width=640`,
      'betza=NN&from=a1&to=h8&board=10x10&width=333',
      `fen=${fen}&from=d5&to=a1&width=100`,
    ]) {
      const res = await get(query);
      expect(res.status).toBe(200);
      const size = await svgSize(query.replace(/&width=\d+/, ''));
      const width = Number(/width=(\d+)/.exec(query)![1]);
      const png = readPng(new Uint8Array(await res.arrayBuffer()));
      expect([png.width, png.height]).toEqual([width, Math.round((size.height * width) / size.width)]);
      expect(png.colours()).toBeGreaterThan(20);
    }
  });

  it.each([
    ['piece=KING&from=z9&to=a1', 'from: "z9" is not a square on an 8 x 8 board'],
    ['piece=KING&from=e4&to=a1&board=65x8', 'board.files: files 65 is over the limit of 64 (MAX_BOARD_SIDE)'],
    ['piece=KING&from=e4', 'to is missing'],
    [
      'piece=KING&from=e4&to=a1&size=2',
      'size is not a parameter of /diagram.png: use piece, from, to, board, mask, blocked, fen, avoidAttacked, orientation, path, betza, width',
    ],
    ['piece=KING&from=e4&to=a1&width=wide', 'width: "wide" is not a width in pixels (from 16 to 4096)'],
    ['piece=KING&from=e4&to=a1&width=1.5', 'width: "1.5" is not a width in pixels'],
    [`piece=KING&from=e4&to=a1&width=${PNG_MAX_WIDTH + 1}`, `width: "4097" is over the limit of 4096 pixels`],
    ['piece=KING&from=e4&to=a1&width=15', 'width: "15" is under the least width of 16 pixels'],
    ['piece=KING&from=e4&to=a1&width=100&width=200', 'width is given 2 times: give it once'],
  ])('refuses %s with 400 plain text', async (query, message) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    expect(await res.text()).toContain(message);
  });

  it('refuses the SVG door a width', async () => {
    const res = await fetch(`${t.url}/diagram.svg?piece=KING&from=e4&to=a1&width=100`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('width is not a parameter of /diagram.svg');
  });

  it('refuses a picture over the pixel limit, naming the widest that fits, and draws that one', async () => {
    const tall = 'piece=ROOK&board=1x64&from=a1&to=a64';
    const res = await get(`${tall}&width=4096`);
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    const match =
      /^width: "4096" makes a PNG of 4096 x (\d+) pixels of this picture, over the limit of (\d+) pixels: give a width of at most (\d+)$/.exec(
        text,
      );
    expect(match, text).not.toBeNull();
    const [height, limit, widest] = match!.slice(1).map(Number);
    expect(4096 * height).toBeGreaterThan(PNG_MAX_PIXELS);
    expect(limit).toBe(PNG_MAX_PIXELS);
    expect((await get(`${tall}&width=${widest + 1}`)).status).toBe(400);
    const fits = await get(`${tall}&width=${widest}`);
    expect(fits.status).toBe(200);
    const header = pngHeader(new Uint8Array(await fits.arrayBuffer()));
    expect(header.width).toBe(widest);
    expect(header.width * header.height).toBeLessThanOrEqual(PNG_MAX_PIXELS);
    expect(header.height).toBeGreaterThan(10_000);
  });

  it('answers HEAD with the headers and no rasterising, and only GET and HEAD', async () => {
    const head = await fetch(`${t.url}/diagram.png?piece=QUEEN&from=a1&to=h7`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(head.headers.get('etag')).toMatch(/^"/);
    expect(await head.text()).toBe('');
    const post = await fetch(`${t.url}/diagram.png?piece=KING&from=e4&to=a1`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
