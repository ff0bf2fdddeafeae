/**
 * `GET /diagram.svg` takes the same road as every GraphQL path question: its cost counts against
 * MAX_COST, a picture that could not be sent within MAX_RESPONSE_BYTES is refused before it is
 * drawn (422, the limit named), and the picture of a large position, drawn on the worker pool
 * from plain data, is the library's drawing to the byte, as it is through `Overlay.svg`.
 */

import { parseFen, positionQuery, solve } from '@chess-paths/engine';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkWellFormedXml } from '../../packages/engine/test/support/xml.js';
import { drawSvg, svgLengthBound } from '../../src/graphql/work/pictures.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// Counts the drawings made on this thread (small boards are drawn here, not on a worker).
const drawn = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/graphql/work/pictures.js', async (original) => {
  const actual = await original<typeof import('../../src/graphql/work/pictures.js')>();
  return {
    ...actual,
    drawSvg: (...args: Parameters<typeof actual.drawSvg>) => {
      drawn.count++;
      return actual.drawSvg(...args);
    },
  };
});

/** A 48 x 48 FEN: 46 ranks of queens (black, then white), and two kings on the empty ranks. */
const QUEENS_FEN = [
  'k47',
  ...Array.from({ length: 23 }, () => 'q'.repeat(48)),
  ...Array.from({ length: 23 }, () => 'Q'.repeat(48)),
  '47K',
].join('/');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false, env: { MAX_BOARD_SIDE: '64' } });
});
afterAll(async () => {
  await t?.close();
});

const diagram = (server: TestServer, query: string) => fetch(`${server.url}/diagram.svg?${query}`);

describe('GET /diagram.svg within the work limits', () => {
  it('counts against MAX_COST like the same question over GraphQL', async () => {
    const cheap = await startTestServer({ database: false, env: { MAX_COST: '5' } });
    try {
      const res = await diagram(cheap, 'piece=KING&from=e4&to=a1');
      expect(res.status).toBe(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toMatch(/^Query cost of [\d.]+ is over the limit of 5 \(MAX_COST\)$/);
    } finally {
      await cheap.close();
    }
  });

  it('refuses a picture over MAX_RESPONSE_BYTES before drawing it', async () => {
    const small = await startTestServer({ database: false, env: { MAX_RESPONSE_BYTES: '4000' } });
    try {
      const before = drawn.count;
      const res = await diagram(small, 'piece=KING&from=e4&to=a1,h8');
      expect(res.status).toBe(422);
      expect(await res.text()).toContain('(MAX_RESPONSE_BYTES)');
      expect(drawn.count).toBe(before);
      // The same server draws what fits: an 8 x 8 picture is drawn here, once.
      const fits = await startTestServer({ database: false, env: { MAX_RESPONSE_BYTES: '100000' } });
      try {
        const ok = await diagram(fits, 'piece=KING&from=e4&to=a1,h8');
        expect(ok.status).toBe(200);
        expect(drawn.count).toBe(before + 1);
      } finally {
        await fits.close();
      }
    } finally {
      await small.close();
    }
  });

  it('sends a picture whose own bound fits, though its JSON-escaped bound would not: the route sends SVG, not JSON', async () => {
    const result = solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });
    const bound = Math.max(
      ...[true, false].flatMap((path) =>
        (['WHITE', 'BLACK'] as const).map((orientation) => svgLengthBound(result, { path, orientation })),
      ),
    );
    // Under the bound plus its share, over the bound JSON-escaped (a tenth more) plus the same.
    const limit = bound + 100;
    expect(Math.ceil(bound * 1.1) + 4).toBeGreaterThan(limit);
    const tight = await startTestServer({ database: false, env: { MAX_RESPONSE_BYTES: String(limit) } });
    try {
      const res = await diagram(tight, 'piece=KING&from=e4&to=a1,h8&path=true');
      expect(res.status).toBe(200);
      const svg = await res.text();
      expect(svg.length).toBeLessThanOrEqual(bound);
      // Over GraphQL the same picture goes out as JSON text, and is held at its escaped size.
      const { body } = await tight.gql(
        '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { overlay { svg(path: true) } } }',
      );
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['RESPONSE_TOO_LARGE']);
    } finally {
      await tight.close();
    }
  });

  it("holds each picture's share before drawing it: of two that do not fit together, the second is not drawn", async () => {
    const questions = ['{ piece: KING, from: ["e4"], to: ["a1"] }', '{ piece: KING, from: ["d4"], to: ["h8"] }'];
    const bound = Math.max(
      svgLengthBound(solve({ piece: 'KING', from: ['e4'], to: ['a1'] })),
      svgLengthBound(solve({ piece: 'KING', from: ['d4'], to: ['h8'] })),
    );
    // Room for one picture's held share (its bound, JSON-escaped), not for one drawn and another held.
    const room = Math.ceil(bound * 1.1 + 4) + 100;
    const tight = await startTestServer({ database: false, env: { MAX_RESPONSE_BYTES: String(Math.ceil(room)) } });
    try {
      const before = drawn.count;
      const { body } = await tight.gql(
        `{ a: shortestPaths(query: ${questions[0]}) { overlay { svg } } b: shortestPaths(query: ${questions[1]}) { overlay { svg } } }`,
      );
      expect(drawn.count - before).toBe(1);
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['RESPONSE_TOO_LARGE']);
      expect([body.data.a, body.data.b].filter((r: unknown) => r !== null)).toHaveLength(1);
    } finally {
      await tight.close();
    }
  });

  it('draws a large position on the pool exactly as the library draws it, facing either way', async () => {
    const board = { files: 48, ranks: 48 };
    const position = parseFen(QUEENS_FEN, board);
    const result = solve(positionQuery(position, 'a48', ['b48', 'av1'], true));
    for (const orientation of ['white', 'black'] as const) {
      const params = new URLSearchParams({
        fen: QUEENS_FEN,
        board: '48x48',
        from: 'a48',
        to: 'b48,av1',
        avoidAttacked: 'true',
        path: 'true',
        orientation,
      });
      const res = await diagram(t, params.toString());
      expect(res.status).toBe(200);
      const svg = await res.text();
      expect(checkWellFormedXml(svg)).toBe('svg');
      const options = {
        fen: QUEENS_FEN,
        mover: 'a48',
        path: true,
        orientation: orientation.toUpperCase() as 'WHITE' | 'BLACK',
      };
      expect(svg).toBe(drawSvg(result, options));
    }
  });

  it('answers Overlay.svg(orientation, path) and Position.paths(blocked) over GraphQL with the same drawing', async () => {
    const fen = '4k3/8/8/8/8/8/2r5/K7 w - - 0 1';
    const { status, body } = await t.gql(
      `{ position(fen: "${fen}") { paths(from: "a1", to: ["h8"], avoidAttacked: true, blocked: ["b1"]) { distance overlay { svg(orientation: BLACK, path: true) } } } }`,
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const query = positionQuery(parseFen(fen), 'a1', ['h8'], true);
    const result = solve({ ...query, blocked: ['b1'] });
    expect(body.data.position.paths.distance).toBe(result.distance);
    expect(body.data.position.paths.overlay.svg).toBe(
      drawSvg(result, { fen, mover: 'a1', orientation: 'BLACK', path: true }),
    );
  });
});
