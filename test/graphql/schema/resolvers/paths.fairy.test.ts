/**
 * Fairy pieces over real HTTP: `PathQuery.betza` with piece FAIRY answers as the library does,
 * with `PathResult.betza` canonical; texts with the same moves share one key and one cache entry
 * (the second is a hit of the memo or the database, never a second solve); a text equal to an
 * orthodox piece answers as that piece; a large board's rider goes through the same loader batch;
 * every refusal is a local BAD_USER_INPUT naming the field and value (MAX_BETZA_LENGTH included),
 * and the rest of the request is answered. A hopper's `Overlay.svg(path: true)` rings the hurdles
 * its smallest path jumps.
 */

import { solve } from '@chess-paths/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawSvg } from '../../../../src/graphql/work/pictures.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  // No engine budget: a new rider's text takes milliseconds to read on a busy machine, and these
  // tests are about answers, not the budget (test/hardening covers it).
  t = await startTestServer({ env: { MAX_BETZA_LENGTH: '20', ENGINE_BUDGET_MS: '0' } });
});
afterAll(async () => {
  await t?.close();
});

const FIELDS = 'piece betza key distance pathCount path { squares } layers { squares } cached';

describe('fairy pieces in GraphQL', () => {
  it('answers a nightrider as the library does, with its canonical text', async () => {
    const { status, body } = await t.gql(`{
      shortestPaths(query: { piece: FAIRY, betza: "N0", from: ["a1"], to: ["h8"], blocked: ["c2"] }) { ${FIELDS} }
    }`);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const expected = solve({ piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'], blocked: ['c2'] });
    const r = body.data.shortestPaths;
    expect(r).toMatchObject({
      piece: 'FAIRY',
      betza: 'NN',
      key: expected.key,
      distance: expected.distance,
      pathCount: String(expected.pathCount),
      path: { squares: expected.path?.squares },
    });
    expect(r.layers.map((l: { squares: string[] }) => l.squares)).toEqual(expected.layers.map((l) => l.squares));
  });

  it('answers a hopper (a cannon written pW0) with its canonical text pR, hurdles from blocked squares', async () => {
    const { status, body } = await t.gql(`{
      shortestPaths(query: { piece: FAIRY, betza: "pW0", from: ["a1"], to: ["a6"], blocked: ["a4", "c1"] }) { ${FIELDS} }
      refused: shortestPaths(query: { piece: FAIRY, betza: "pR4", from: ["a1"], to: ["h8"] }) { distance }
    }`);
    expect(status).toBe(200);
    const expected = solve({ piece: 'FAIRY', betza: 'pR', from: ['a1'], to: ['a6'], blocked: ['a4', 'c1'] });
    expect(expected.distance).toBe(1);
    expect(body.data.shortestPaths).toMatchObject({
      piece: 'FAIRY',
      betza: 'pR',
      key: expected.key,
      distance: 1,
      pathCount: String(expected.pathCount),
      path: { squares: ['a1', 'a6'] },
    });
    expect(body.data.refused).toBeNull();
    const [error] = body.errors ?? [];
    expect(error.path).toEqual(['refused']);
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.message).toBe(
      `query.betza: "pR4" '4' at 3 limits the hopper 'p' at 1: a hopper rides without a number (or with 0)`,
    );
  });

  it("rings in Overlay.svg(path: true) the hurdles of a cannon's smallest path: a blocked square, a FEN's piece", async () => {
    const fen = '2n5/8/8/8/8/8/8/8 w - - 0 1';
    const { body } = await t.gql(`{
      shortestPaths(query: { piece: FAIRY, betza: "pR", from: ["a1"], to: ["h8"], blocked: ["a4"], fen: "${fen}" }) {
        path { squares } overlay { svg(path: true) black: svg(path: true, orientation: BLACK) plain: svg }
      }
    }`);
    expect(body.errors).toBeUndefined();
    const { path, overlay } = body.data.shortestPaths;
    // a1 over the blocked a4 to a8, then over the black knight on c8 to h8.
    expect(path.squares).toEqual(['a1', 'a8', 'h8']);
    const result = solve({ piece: 'FAIRY', betza: 'pR', from: ['a1'], to: ['h8'], blocked: ['a4'], fen });
    expect(overlay.svg).toBe(drawSvg(result, { fen, path: true }));
    /** The centres of the rings' dark edges. */
    const rings = (svg: string) =>
      [
        ...(/<g class="hurdles"[^>]*>([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '').matchAll(
          /<circle cx="([\d.]+)" cy="([\d.]+)"[^>]*stroke="#1a1a1a"/g,
        ),
      ].map((m) => `${m[1]},${m[2]}`);
    // a4: column 0, row 4 from the top; c8: column 2, row 0 (48-unit squares from (24, 8)).
    expect(rings(overlay.svg)).toEqual(['48,224', '144,32']);
    expect(rings(overlay.black)).toEqual(['384,176', '288,368']);
    expect(overlay.svg).toContain('<g class="piece black knight"');
    expect(overlay.svg).toContain('>hurdle jumped</text>');
    expect(overlay.plain).not.toContain('hurdle');
  });

  it('gives texts with the same moves one key and one cache entry: the second is never solved again', async () => {
    // A board over 512 squares: a costly result, written on its first ask (cache on second hit).
    const ask = (betza: string) =>
      t.gql(
        `{ shortestPaths(query: { piece: FAIRY, betza: "${betza}", board: { files: 24, ranks: 24 }, from: ["a1"], to: ["x24"] }) { betza key cached distance } }`,
      );
    const solvedBefore = await t.metric('chess_paths_engine_solves_total');
    const first = (await ask('W2D')).body.data.shortestPaths;
    const solvedOnce = await t.metric('chess_paths_engine_solves_total');
    expect(solvedOnce - solvedBefore).toBe(1);
    const second = (await ask('WD')).body.data.shortestPaths;
    const third = (await ask('DW')).body.data.shortestPaths;
    expect(first.betza).toBe('WD');
    expect(second).toEqual({ ...first, cached: second.cached });
    expect(third.key).toBe(first.key);
    expect(await t.metric('chess_paths_engine_solves_total')).toBe(solvedOnce);
  });

  it('answers a text equal to an orthodox piece as that piece, with its key', async () => {
    const { body } = await t.gql(`{
      fairy: shortestPaths(query: { piece: FAIRY, betza: "FW", from: ["e4"], to: ["a1", "h8"] }) { piece betza key distance pathCount }
      king: shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { piece betza key distance pathCount }
      pawn: shortestPaths(query: { piece: WHITE_PAWN, from: ["e2"], to: ["e4"] }) { piece betza }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.fairy).toEqual(body.data.king);
    expect(body.data.king).toMatchObject({ piece: 'KING', betza: 'K', distance: 4, pathCount: '8' });
    expect(body.data.pawn).toEqual({ piece: 'WHITE_PAWN', betza: null });
  });

  it('answers fairy questions of a batch together, on large boards too', async () => {
    const queries = ['NN', 'C', 'nN', 'fmWfcF', 'QN'].map((betza) => ({
      piece: 'FAIRY',
      betza,
      board: { files: 48, ranks: 40 },
      from: ['b2'],
      to: ['av40', 'a40'],
    }));
    const { body } = await t.gql(
      'query ($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { betza distance pathCount } }',
      { q: queries },
    );
    expect(body.errors).toBeUndefined();
    body.data.shortestPathsBatch.forEach(
      (r: { betza: string; distance: number | null; pathCount: string }, i: number) => {
        const expected = solve(queries[i] as Parameters<typeof solve>[0]);
        expect(r).toEqual({
          betza: expected.betza,
          distance: expected.distance,
          pathCount: String(expected.pathCount),
        });
      },
    );
  });

  it('reads new texts of single questions on turns of their own, and still loads the request in one batch', async () => {
    const batches = () => t.metric('chess_paths_loader_batch_size_count');
    const before = await batches();
    // Texts no other test asks (a rider limited to 37 and 38 leaps): read on later turns.
    const { body } = await t.gql(`{
      a: shortestPaths(query: { piece: FAIRY, betza: "fW37N", from: ["a1"], to: ["h8"] }) { betza distance }
      b: shortestPaths(query: { piece: FAIRY, betza: "bF38N", from: ["a1"], to: ["h8"] }) { betza distance }
      k: shortestPaths(query: { piece: KING, from: ["a1"], to: ["h8"] }) { distance }
    }`);
    expect(body.errors).toBeUndefined();
    for (const [alias, betza] of [
      ['a', 'fW37N'],
      ['b', 'bF38N'],
    ]) {
      const expected = solve({ piece: 'FAIRY', betza, from: ['a1'], to: ['h8'] });
      expect(body.data[alias]).toEqual({ betza: expected.betza, distance: expected.distance });
    }
    expect(body.data.k).toEqual({ distance: 7 });
    expect(await batches()).toBe(before + 1);
  });

  it('refuses bad fairy questions locally, naming the field and the value', async () => {
    const { status, body } = await t.gql(`{
      hopper: shortestPaths(query: { piece: FAIRY, betza: "pN", from: ["a1"], to: ["h8"] }) { distance }
      missing: shortestPaths(query: { piece: FAIRY, from: ["a1"], to: ["h8"] }) { distance }
      orthodox: shortestPaths(query: { piece: KING, betza: "NN", from: ["a1"], to: ["h8"] }) { distance }
      long: shortestPaths(query: { piece: FAIRY, betza: "${'WFDNAHCZG'.repeat(3)}", from: ["a1"], to: ["h8"] }) { distance }
      fine: shortestPaths(query: { piece: FAIRY, betza: "NN", from: ["a1"], to: ["h8"] }) { distance }
    }`);
    expect(status).toBe(200);
    const fine = solve({ piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] }).distance;
    expect(body.data).toEqual({ hopper: null, missing: null, orthodox: null, long: null, fine: { distance: fine } });
    const byPath = Object.fromEntries((body.errors ?? []).map((e) => [e.path?.[0], e]));
    for (const name of ['hopper', 'missing', 'orthodox', 'long'])
      expect(byPath[name].extensions?.code).toBe('BAD_USER_INPUT');
    expect(byPath.hopper.message).toBe(
      `query.betza: "pN" 'p' at 1 is a hopper before the leaper N: it needs an unlimited rider`,
    );
    expect(byPath.missing.message).toBe('query.betza is missing: piece FAIRY needs a Betza text');
    expect(byPath.orthodox.message).toBe('query.betza: "NN" is only for piece FAIRY, not KING');
    expect(byPath.long.message).toBe(
      'query.betza: a text of 27 characters is over the limit of 20 characters (MAX_BETZA_LENGTH)',
    );
    expect(byPath.long.extensions).toMatchObject({ limit: 'MAX_BETZA_LENGTH', max: 20 });
  });
});

describe('fairy pieces in saved analyses', () => {
  it("keeps a saved question's Betza text, and answers it again when the analysis is read", async () => {
    const nightrider = { piece: 'FAIRY', betza: 'N0', from: ['a1'], to: ['h8'] };
    const saved = await t.gql(
      `mutation ($input: SaveAnalysisInput!) {
        saveAnalysis(input: $input) { analysis { id results { piece betza key distance } } }
      }`,
      { input: { title: 'Riders', queries: [nightrider, { piece: 'KNIGHT', from: ['a1'], to: ['h8'] }] } },
    );
    expect(saved.body.errors).toBeUndefined();
    const { analysis } = saved.body.data.saveAnalysis;
    const expected = solve({ ...nightrider, piece: 'FAIRY' });
    expect(analysis.results[1]).toMatchObject({ piece: 'KNIGHT', betza: 'N' });
    expect(analysis.results[0]).toEqual({
      piece: 'FAIRY',
      betza: 'NN',
      key: expected.key,
      distance: expected.distance,
    });
    const read = await t.gql(`query ($id: ID!) { analysis(id: $id) { results { betza key distance } } }`, {
      id: analysis.id,
    });
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.analysis.results[0]).toEqual({ betza: 'NN', key: expected.key, distance: expected.distance });
    const bad = await t.gql(
      'mutation ($input: SaveAnalysisInput!) { saveAnalysis(input: $input) { analysis { id } } }',
      { input: { title: 'Hopper', queries: [{ piece: 'FAIRY', betza: 'pN', from: ['a1'], to: ['h8'] }] } },
    );
    expect(bad.body.data?.saveAnalysis ?? null).toBeNull();
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.body.errors?.[0].message).toMatch(/^input\.queries\[0\]\.betza: "pN" 'p' at 1/);
  });
});
