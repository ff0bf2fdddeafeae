/**
 * FEN positions over real HTTP: `position` (turn, pieces, occupied, other board sizes) and
 * `Position.paths` (role and colour from the piece on `from`, other pieces blocking, a piece on a
 * target captured, `avoidAttacked` removing the squares the other colour attacks), and PathQuery's
 * own `fen` argument. Expected values are small enough to check by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWellFormedXml } from '../../../../packages/engine/test/support/xml.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false });
});
afterAll(async () => {
  await t?.close();
});

const layers = (r: { layers: { squares: string[] }[] }) => r.layers.map((l) => l.squares);

describe('position', () => {
  it('reads turn, pieces and occupied squares', async () => {
    const { body } = await t.gql(`{
      position(fen: "8/8/8/p7/P7/8/8/K7 b - - 0 1") {
        fen turn board { files ranks }
        pieces { square role color }
        occupied { squares count bitboard }
      }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.position).toEqual({
      fen: '8/8/8/p7/P7/8/8/K7 b - - 0 1',
      turn: 'BLACK',
      board: { files: 8, ranks: 8 },
      pieces: [
        { square: 'a1', role: 'KING', color: 'WHITE' },
        { square: 'a4', role: 'PAWN', color: 'WHITE' },
        { square: 'a5', role: 'PAWN', color: 'BLACK' },
      ],
      occupied: { squares: ['a1', 'a4', 'a5'], count: 3, bitboard: '0x0000000101000001' },
    });
  });

  it('lets other pieces block the mover', async () => {
    // The king on a1 cannot pass its own pawn on b2: a1-a2-b3-c3 or a1-b1-c2-c3.
    const { body } = await t.gql(`{
      position(fen: "8/8/8/8/8/8/1P6/K7 w - - 0 1") {
        paths(from: "a1", to: ["c3"]) { piece distance layers { squares } }
      }
    }`);
    expect(body.errors).toBeUndefined();
    const r = body.data.position.paths;
    expect(r.piece).toBe('KING');
    expect(r.distance).toBe(3);
    expect(layers(r)).toEqual([['a1'], ['b1', 'a2'], ['c2', 'b3'], ['c3']]); // squares in index order
  });

  it('captures a piece standing on a target', async () => {
    const { body } = await t.gql(`{
      position(fen: "8/8/8/8/8/8/8/K1r5 w - - 0 1") { paths(from: "a1", to: ["c1"]) { distance } }
    }`);
    expect(body.data.position.paths.distance).toBe(2);
  });

  it('avoidAttacked: a rook on c2 walls the king in', async () => {
    // The rook attacks rank 2 (a2, b2, d2..h2) and the c-file (c1, c3..c8).
    const { body } = await t.gql(`{
      position(fen: "8/8/8/8/8/8/2r5/K7 w - - 0 1") {
        free: paths(from: "a1", to: ["d4"]) { reachable distance }
        safe: paths(from: "a1", to: ["d4"], avoidAttacked: true) { reachable distance mask }
        near: paths(from: "a1", to: ["b1"], avoidAttacked: true) { distance }
        attackedTarget: paths(from: "a1", to: ["a2"], avoidAttacked: true) { reachable targets { count } }
      }
      check: position(fen: "8/8/8/8/8/8/8/K1r5 w - - 0 1") {
        escape: paths(from: "a1", to: ["a2", "b2"], avoidAttacked: true) { distance sources { squares } targets { squares } }
        alongTheCheck: paths(from: "a1", to: ["b1"], avoidAttacked: true) { reachable }
      }
    }`);
    expect(body.errors).toBeUndefined();
    const p = body.data.position;
    expect(p.free).toEqual({ reachable: true, distance: 3 });
    expect(p.safe.reachable).toBe(false);
    expect(p.safe.distance).toBeNull();
    // Ranks 1-2 of the mask: rank 1 without c1 (attacked); nothing of rank 2 (attacked, or the rook).
    expect(BigInt(p.safe.mask) & 0xffffn).toBe(0b00000000_11111011n);
    expect(p.near.distance).toBe(1);
    expect(p.attackedTarget).toEqual({ reachable: false, targets: { count: 0 } });
    // A king in check stands on an attacked square, yet starts there: it escapes to a2 or b2,
    // never to b1, which the rook on c1 still attacks.
    expect(body.data.check.escape).toEqual({
      distance: 1,
      sources: { squares: ['a1'] },
      targets: { squares: ['a2', 'b2'] },
    });
    expect(body.data.check.alongTheCheck).toEqual({ reachable: false });
  });

  it('draws the position in Overlay.svg (Position.paths and FEN questions): pieces, and attacked squares with avoidAttacked', async () => {
    const { body } = await t.gql(`{
      position(fen: "8/8/8/8/8/8/8/K1r5 w - - 0 1") {
        plain: paths(from: "a1", to: ["a2"]) { overlay { svg } }
        safe: paths(from: "A1", to: ["a2"], avoidAttacked: true) { overlay { svg } }
      }
      withFen: shortestPaths(query: { piece: KING, from: ["a1"], to: ["a2"], fen: "8/8/8/8/8/8/8/K1r5 w - - 0 1" }) { overlay { svg } }
      batch: shortestPathsBatch(queries: [
        { piece: KING, from: ["a1"], to: ["a2"], blocked: ["c1"] }
        { piece: KING, from: ["a1"], to: ["a2"], fen: "8/8/8/8/8/8/8/K1r5 w - - 0 1" }
      ]) { overlay { svg } }
      same: shortestPaths(query: { piece: KING, from: ["a1"], to: ["a2"], blocked: ["c1"] }) { overlay { svg } }
    }`);
    expect(body.errors).toBeUndefined();
    const { plain, safe } = body.data.position;
    const { withFen, batch, same } = body.data;
    const all = [plain, safe, withFen, batch[0], batch[1], same].map((r) => r.overlay.svg as string);
    for (const svg of all) checkWellFormedXml(svg);
    // The pieces (the king and the rook) in every answer that has a position (Position.paths, a
    // question with a FEN, alone or in a batch); none in the same question asked without one,
    // which shares the very same result.
    const pieces = (svg: string) => (/<g class="pieces">([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '').trim();
    for (const r of [plain, safe, withFen, batch[1]]) expect(pieces(r.overlay.svg)).not.toBe('');
    for (const r of [batch[0], same]) expect(pieces(r.overlay.svg)).toBe('');
    // Attacked squares only with avoidAttacked: the rook on c1 attacks a1 and b1 (the king in
    // check), d1 to h1 and c2 to c8.
    const attacked = (svg: string) => (/<g class="attacked"[^>]*>([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '').trim();
    expect(attacked(plain.overlay.svg)).toBe('');
    expect((attacked(safe.overlay.svg).match(/<rect/g) ?? []).length).toBe(2 + 5 + 7);
  });

  it('avoidAttacked in a blocked pawn ending: the king keeps off the square the black pawn guards', async () => {
    const { body } = await t.gql(`{
      position(fen: "8/8/8/p7/P7/8/8/K7 w - - 0 1") {
        free: paths(from: "a1", to: ["b5"]) { distance layers { squares } }
        safe: paths(from: "a1", to: ["b5"], avoidAttacked: true) { distance layers { squares } }
      }
    }`);
    expect(body.errors).toBeUndefined();
    const { free, safe } = body.data.position;
    expect(free.distance).toBe(4);
    expect(safe.distance).toBe(4);
    expect(free.layers[3].squares).toEqual(['b4', 'c4']);
    expect(safe.layers[3].squares).toEqual(['c4']); // b4 is attacked by the pawn on a5
  });

  it('moves pawns by their colour', async () => {
    const { body } = await t.gql(`{
      position(fen: "8/4p3/8/8/8/8/4P3/8 w - - 0 1") {
        white: paths(from: "e2", to: ["e4"]) { piece distance }
        black: paths(from: "e7", to: ["e5"]) { piece distance }
        back: paths(from: "e2", to: ["e1"]) { reachable }
      }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.position.white).toEqual({ piece: 'WHITE_PAWN', distance: 1 });
    expect(body.data.position.black).toEqual({ piece: 'BLACK_PAWN', distance: 1 });
    expect(body.data.position.back.reachable).toBe(false);
  });

  it('works on other board sizes', async () => {
    const { body } = await t.gql(`{
      position(fen: "10/10/10/4K5/10/10 w - - 0 1", board: { files: 10, ranks: 6 }) {
        board { files ranks }
        pieces { square }
        paths(from: "e3", to: ["j6"]) { distance board { files ranks } }
      }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.position.board).toEqual({ files: 10, ranks: 6 });
    expect(body.data.position.pieces).toEqual([{ square: 'e3' }]);
    expect(body.data.position.paths).toEqual({ distance: 5, board: { files: 10, ranks: 6 } });
  });
});

describe('PathQuery.fen', () => {
  it('blocks with the occupied squares, except the query’s own from and to squares', async () => {
    const { body } = await t.gql(`{
      blocked: shortestPaths(query: { piece: ROOK, from: ["a1"], to: ["a8"], fen: "8/8/8/8/p7/8/8/R7 w - - 0 1" }) { distance }
      capture: shortestPaths(query: { piece: ROOK, from: ["a1"], to: ["a4"], fen: "8/8/8/8/p7/8/8/R7 w - - 0 1" }) { distance }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.blocked.distance).toBe(3);
    expect(body.data.capture.distance).toBe(1);
  });
});
