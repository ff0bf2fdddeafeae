/**
 * `GET /diagram.svg` on a real server: the SVG and its caching headers, and 400 plain-text
 * refusals that name the parameter and the value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWellFormedXml } from '../../packages/engine/test/support/xml.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false, env: { MAX_BOARD_SIDE: '16' } });
});
afterAll(async () => {
  await t?.close();
});

const get = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${t.url}/diagram.svg?${query}`, { headers });

describe('GET /diagram.svg', () => {
  it('draws the seed as a cacheable SVG image with an ETag and 304 on If-None-Match', async () => {
    const counted = () => t.metric('chess_paths_http_requests_total', { route: 'diagram' });
    const before = await counted();
    const res = await get('piece=KING&from=e4&to=a1,h8');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const tag = res.headers.get('etag');
    expect(tag).toMatch(/^"/);
    const svg = await res.text();
    expect(checkWellFormedXml(svg)).toBe('svg');
    expect(svg).toContain('from e4 to a1, h8: 4 moves</title>');
    expect(svg.match(/<g class="steps"[\s\S]*?<\/g>/)?.[0].match(/<circle /g)).toHaveLength(15);

    const again = await get('piece=KING&from=e4&to=a1,h8', { 'if-none-match': tag as string });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    expect(await again.text()).toBe('');
    await expect.poll(counted).toBe(before + 2);
  });

  it('draws a position: pieces, attacked squares with avoidAttacked, black at the bottom', async () => {
    const fen = encodeURIComponent('4k3/8/8/3r4/8/8/8/4K3 w - - 0 1');
    const res = await get(`fen=${fen}&from=e1&to=e3&avoidAttacked=true&orientation=black&path=true`);
    expect(res.status).toBe(200);
    const svg = await res.text();
    expect(checkWellFormedXml(svg)).toBe('svg');
    expect(svg).toContain('<g class="piece black rook"');
    expect(svg).toContain('<g class="piece white king"');
    expect(svg).toMatch(/<g class="attacked"[^>]*>\n<rect /);
    expect(svg).toContain('<polyline ');
    expect(svg).toContain(': 2 moves</title>');
  });

  it('moves the piece standing on from when a fen is given and no piece, avoiding nothing', async () => {
    const fen = '4k3/8/8/3r4/8/8/8/4K3 w - - 0 1';
    const res = await get(`fen=${encodeURIComponent(fen)}&from=d5&to=d1&path=true`);
    expect(res.status).toBe(200);
    const svg = await res.text();
    const { body } = await t.gql(
      `query($fen: String!) { position(fen: $fen) { paths(from: "d5", to: ["d1"]) { overlay { svg(path: true) } } } }`,
      { fen },
    );
    expect(svg).toBe(body.data.position.paths.overlay.svg);
    expect(svg).toContain('<g class="piece black rook"');
    expect(svg).not.toMatch(/<g class="attacked"[^>]*>\n<rect /);
    const two = await get(`fen=${encodeURIComponent(fen)}&from=d5,e1&to=d1`);
    expect(two.status).toBe(400);
    expect(await two.text()).toBe('from: "d5,e1" must be one square when the piece on it moves (a fen and no piece)');
  });

  it('draws a 10 x 10 board with blocked squares, and an unreachable answer with its banner', async () => {
    const res = await get('piece=ROOK&from=a1&to=j10&board=10x10&blocked=b1,a2');
    expect(res.status).toBe(200);
    const svg = await res.text();
    expect(checkWellFormedXml(svg)).toBe('svg');
    expect(svg).toContain('>unreachable</text>');
    expect(svg).toContain('>j</text>');
  });

  it.each([
    ['piece=KING&from=z9&to=a1', 'from: "z9" is not a square on an 8 x 8 board'],
    ['piece=KING&from=e4&to=a1&board=ten', 'board: "ten" is not a board size'],
    ['piece=KING&from=e4&to=a1&board=17x8', 'board.files: files 17 is over the limit of 16 (MAX_BOARD_SIDE)'],
    ['piece=KING&from=e4&to=a1&fen=nonsense', 'fen: "nonsense" has 1 rank'],
    ['piece=KING&from=e4&to=a1&orientation=up', 'orientation: "up" is not white or black'],
    ['from=e4&to=a1', 'piece is missing'],
    ['piece=KINGS&from=e4&to=a1', 'piece: "KINGS" is not a piece'],
    ['piece=KING&from=e4', 'to is missing'],
    ['piece=KING&from=e4&to=a1&avoidAttacked=yes', 'avoidAttacked: "yes" is not true or false'],
    ['piece=KING&from=e4&to=a1&mask=0xzz', 'mask'],
    ['piece=KING&piece=QUEEN&from=e4&to=a1', 'piece is given 2 times: give it once'],
    ['piece=KING&from=e4&to=a1&path=true&path=false', 'path is given 2 times: give it once'],
    [
      'piece=KING&from=e4&to=a1&orientaton=black',
      'orientaton is not a parameter of /diagram.svg: use piece, from, to, board, mask, blocked, fen, avoidAttacked, orientation, path, betza',
    ],
    [
      `fen=${encodeURIComponent('8/8/8/8/8/8/8/4K3 w - - 0 1')}&from=e4&to=a1&avoidAttacked=true`,
      'from: "e4" has no piece',
    ],
  ])('refuses %s with 400 plain text', async (query, message) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toContain(message);
  });

  it('joins a list given more than once, and reads true and false in any case', async () => {
    const joined = await get('piece=KING&from=e4&from=d4&to=a1');
    expect(joined.status).toBe(200);
    expect(await joined.text()).toBe(await (await get('piece=KING&from=e4,d4&to=a1')).text());
    const upper = await get('piece=KING&from=e4&to=a1&path=TRUE');
    expect(upper.status).toBe(200);
    expect(await upper.text()).toBe(await (await get('piece=KING&from=e4&to=a1&path=true')).text());
  });

  it('answers only GET and HEAD', async () => {
    const res = await fetch(`${t.url}/diagram.svg?piece=KING&from=e4&to=a1`, { method: 'POST' });
    expect(res.status).toBe(405);
    const head = await fetch(`${t.url}/diagram.svg?piece=KING&from=e4&to=a1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  });
});
