/**
 * `GET /diagram.svg?betza=...` on a real server: a fairy piece's picture is the one the service
 * draws for its `PathResult` (its sources starred, its canonical Betza text in the title and the
 * legend, its steps the engine's layers), texts of one piece share one picture and tag, and every
 * refusal (a text outside the subset, FAIRY without a text, a text with an orthodox piece, a text
 * over MAX_BETZA_LENGTH, a text with avoidAttacked) is a 400 naming `betza` and the value. A
 * picture of more than 16 x 16 squares is drawn on the worker pool, from the problem rebuilt there.
 * A hopper's picture with its path rings the hurdles that path jumps, a FEN's piece among them.
 */

import { type PathQuery, parseSquare, resolveBoard, solve } from '@chess-paths/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWellFormedXml } from '../../packages/engine/test/support/xml.js';
import { INLINE_WEIGHT } from '../../src/graphql/work/dispatch.js';
import { fieldWeight } from '../../src/graphql/work/fields.js';
import { drawSvg } from '../../src/graphql/work/pictures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The server's MAX_BETZA_LENGTH here: small, so the limit is the configured one, not the default. */
const MAX_BETZA = 12;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    database: false,
    env: { MAX_BOARD_SIDE: '32', MAX_BETZA_LENGTH: String(MAX_BETZA) },
  });
});
afterAll(async () => {
  await t?.close();
});

const get = (query: string, init: RequestInit = {}) => fetch(`${t.url}/diagram.svg?${query}`, init);

/** The squares of each step drawn (by the centres of the numbered circles), step 0 first. */
function stepsDrawn(svg: string, query: PathQuery): string[][] {
  const board = resolveBoard(query.board ?? null);
  const body = /<g class="steps"[^>]*>([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
  const steps: string[][] = [];
  for (const m of body.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*>(\d+)<\/text>/g)) {
    const file = (Number(m[1]) - 24 - 24) / 48;
    const rank = board.ranks - 1 - (Number(m[2]) - 8 - 24) / 48;
    (steps[Number(m[3])] ??= []).push(`${String.fromCharCode(97 + file)}${rank + 1}`);
  }
  return steps.map((squares) => squares.sort((a, b) => parseSquare(a, board) - parseSquare(b, board)));
}

describe('GET /diagram.svg with betza', () => {
  it("draws a nightrider: the service's picture of its result, starred sources, NN named, solve's layers", async () => {
    const query: PathQuery = { piece: 'FAIRY', betza: 'NN', from: ['a1', 'c1'], to: ['h8'] };
    const res = await get('betza=NN&from=a1,c1&to=h8');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const svg = await res.text();
    expect(checkWellFormedXml(svg)).toBe('svg');
    const result = solve(query);
    expect(svg).toBe(drawSvg(result));
    expect(svg).toContain('<title>Shortest paths of fairy piece NN on an 8 x 8 board from a1, c1 to h8: ');
    // Two stars on the board (a1, c1) and one in the legend, beside the piece's name.
    expect(svg.match(/<g class="fairy-mark" [^>]*scale\(0\.17\)/g)).toHaveLength(2);
    expect(svg).toMatch(/<g class="fairy-mark" [^>]*scale\(0\.16\)">.*<\/g>\n<text [^>]*>fairy piece NN<\/text>/);
    expect(stepsDrawn(svg, query)).toEqual(result.layers.map((layer) => layer.squares));
    expect(result.distance).toBeGreaterThan(1);

    // Another text of the same piece is the same question: same picture, same tag, and a 304.
    const tag = res.headers.get('etag') as string;
    const same = await get('piece=fairy&betza=N0&from=a1,c1&to=h8');
    expect(same.status).toBe(200);
    expect(same.headers.get('etag')).toBe(tag);
    expect(await same.text()).toBe(svg);
    const again = await get('betza=N256&from=a1,c1&to=h8', { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    const head = await get('betza=NN&from=a1,c1&to=h8', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(svg));
  });

  it('draws a lame piece on a larger board with its path, for Black, as the service draws it', async () => {
    const query: PathQuery = {
      piece: 'FAIRY',
      betza: 'nN',
      from: ['a1'],
      to: ['j10'],
      board: { files: 10, ranks: 10 },
      blocked: ['a2', 'e5'],
    };
    const res = await get('betza=nN&from=a1&to=j10&board=10x10&blocked=a2,e5&path=true&orientation=black');
    expect(res.status).toBe(200);
    const svg = await res.text();
    expect(svg).toBe(drawSvg(solve(query), { path: true, orientation: 'BLACK' }));
    expect(svg).toContain('>fairy piece nN</text>');
    expect(svg).toContain('<polyline ');
  });

  it("rings the hurdles a hopper's smallest path jumps, a FEN's piece and a blocked square", async () => {
    const fen = '8/8/8/8/3p4/8/8/8 w - - 0 1';
    const query: PathQuery = { piece: 'FAIRY', betza: 'gQ', from: ['b2'], to: ['g5'], blocked: ['f5'], fen };
    const ask = `betza=gQ&from=b2&to=g5&blocked=f5&fen=${encodeURIComponent(fen)}`;
    const res = await get(`${ask}&path=true`);
    expect(res.status).toBe(200);
    const svg = await res.text();
    expect(checkWellFormedXml(svg)).toBe('svg');
    const result = solve(query);
    // b2 over the pawn on d4 to e5, then over the blocked f5 to g5.
    expect(result.path?.squares).toEqual(['b2', 'e5', 'g5']);
    expect(svg).toBe(drawSvg(result, { fen, path: true }));
    const rings = /<g class="hurdles"[^>]*>([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
    const centres = [...rings.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"[^>]*stroke="#1a1a1a"/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    // d4 and f5 on the 48-unit squares of a board whose top-left corner is (24, 8).
    expect(centres).toEqual([
      [24 + 3 * 48 + 24, 8 + 4 * 48 + 24],
      [24 + 5 * 48 + 24, 8 + 3 * 48 + 24],
    ]);
    expect(svg).toContain('>hurdle jumped</text>');
    // The picture without the path rings nothing, and is another picture with another tag.
    const plain = await get(ask);
    expect(await plain.text()).not.toContain('hurdle');
    expect(plain.headers.get('etag')).not.toBe(res.headers.get('etag'));

    // On the worker pool (a large board), from the problem rebuilt there: the same rings.
    const board = { files: 24, ranks: 24 };
    const far = solve({ piece: 'FAIRY', betza: 'pR', from: ['a1'], to: ['a24'], blocked: ['a12'], board });
    expect(fieldWeight(far, 'svg')).toBeGreaterThan(INLINE_WEIGHT);
    const drawn = await (await get('betza=pR&from=a1&to=a24&blocked=a12&board=24x24&path=true')).text();
    expect(drawn).toBe(drawSvg(far, { path: true }));
    // a12: file a, row 24 - 12 = 12 counted from the top (rank 24 is row 0).
    expect(drawn.match(/<g class="hurdles"[^>]*>\n<circle cx="48" cy="608" /g)).toHaveLength(1);
  });

  it('draws a large board on the worker pool exactly as the library draws it', async () => {
    const query: PathQuery = {
      piece: 'FAIRY',
      betza: 'fNNbW',
      from: ['a1', 'b1'],
      to: ['x24'],
      board: { files: 24, ranks: 24 },
    };
    const res = await get('betza=fNNbW&from=a1,b1&to=x24&board=24x24&path=true');
    expect(res.status).toBe(200);
    const svg = await res.text();
    const result = solve(query);
    expect(fieldWeight(result, 'svg')).toBeGreaterThan(INLINE_WEIGHT); // so it goes to the pool
    expect(svg).toBe(drawSvg(result, { path: true }));
    expect(svg).toContain(`>fairy piece ${result.betza}</text>`);
    expect(svg.match(/<g class="fairy-mark" [^>]*scale\(0\.17\)/g)).toHaveLength(2);
  });

  it('draws a Betza text of an orthodox piece as that piece: the same picture and tag', async () => {
    const asKing = await get('betza=FW&from=e4&to=a1,h8');
    const king = await get('piece=KING&from=e4&to=a1,h8');
    expect(asKing.status).toBe(200);
    expect(asKing.headers.get('etag')).toBe(king.headers.get('etag'));
    const svg = await asKing.text();
    expect(svg).toBe(await king.text());
    expect(svg).not.toContain('fairy');
  });

  it.each([
    ['betza=pN&from=a1&to=h8', `betza: "pN" 'p' at 1 is a hopper before the leaper N: it needs an unlimited rider`],
    ['betza=frK&from=a1&to=h8', `betza: "frK" 'K' at 3 keeps no leap`],
    ['betza=&from=a1&to=h8', 'betza: "" is empty'],
    ['piece=FAIRY&from=a1&to=h8', 'betza is missing: piece FAIRY needs a Betza text'],
    ['piece=KING&betza=NN&from=a1&to=h8', 'betza: "NN" is only for piece FAIRY, not KING'],
    [
      `betza=${'N'.repeat(MAX_BETZA + 1)}&from=a1&to=h8`,
      `betza: a text of ${MAX_BETZA + 1} characters is over the limit of ${MAX_BETZA} characters (MAX_BETZA_LENGTH)`,
    ],
    [
      `betza=NN&fen=${encodeURIComponent('4k3/8/8/3r4/8/8/8/4K3 w - - 0 1')}&from=e1&to=e3&avoidAttacked=true`,
      'betza: "NN" cannot be combined with avoidAttacked',
    ],
    ['betza=NN&from=z9&to=h8', 'from: "z9" is not a square on an 8 x 8 board'],
    [
      'from=a1&to=h8',
      'piece is missing: expected one of KING, QUEEN, ROOK, BISHOP, KNIGHT, WHITE_PAWN, BLACK_PAWN, or betza for a fairy piece',
    ],
  ])('refuses %s with 400 plain text naming the parameter', async (query, message) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain(message);
  });

  it('takes a text within the limit whose canonical form is longer', async () => {
    // fQbKnDnAfQ is 10 characters, under the limit of 12; its canonical text has 13.
    const query: PathQuery = { piece: 'FAIRY', betza: 'fQbKnDnAfQ', from: ['d1'], to: ['d8', 'a4'] };
    const result = solve(query);
    expect(result.betza?.length).toBeGreaterThan(MAX_BETZA);
    const res = await get('betza=fQbKnDnAfQ&from=d1&to=d8,a4');
    expect(res.status).toBe(200);
    const svg = await res.text();
    expect(svg).toBe(drawSvg(result));
    expect(svg).toContain(`>fairy piece ${result.betza}</text>`);
  });
});
