/**
 * What the cost model reads from a question's text (src/graphql/limits/cost-inputs.ts) and what follows
 * at admission: a picture of a position full of pieces is heavy work, the same picture without
 * them and an 8 x 8 start position are light; a game's half-moves are counted in its text, at most
 * MAX_PLIES, and its work grows with them.
 */
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { HEAVY_WORK, operationCost } from '../../../src/graphql/limits/cost.js';
import { pieceUnits, pliesIn } from '../../../src/graphql/limits/cost-inputs.js';
import { buildSchema } from '../../../src/graphql/schema/schema.js';

const schema = buildSchema();
const limits = loadConfig({}).limits;
const work = (query: string, variables: Record<string, unknown> = {}) =>
  operationCost({ schema, document: parse(query), variables, limits }).work;

/** 62 ranks of queens on 64 x 64, and two kings. */
const QUEENS = ['k63', ...Array.from({ length: 62 }, (_, i) => (i % 2 ? 'Q' : 'q').repeat(64)), '63K'].join('/');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

describe('the cost model reads the text', () => {
  it('counts the pieces of a FEN, per board square', () => {
    expect(pieceUnits({ fen: START }, 64)).toBe(32);
    expect(pieceUnits({ fen: QUEENS }, 64 * 64)).toBe(Math.ceil(((62 * 64 + 2) * 64) / 4096));
    expect(pieceUnits({ fen: '8/8/8/8/8/8/8/8 w - - 0 1' }, 64)).toBe(0);
    expect(pieceUnits({}, 64)).toBe(0);
  });

  it('makes a picture of a position full of pieces heavy, and the same board without them light', () => {
    const picture = (fen: string) =>
      work(
        `query($f: String!) { position(fen: $f, board: { files: 64, ranks: 64 }) { paths(from: "a64", to: ["b64"]) { overlay { svg } } } }`,
        { f: fen },
      );
    expect(picture(QUEENS)).toBeGreaterThan(HEAVY_WORK);
    expect(picture('k63/63K w - - 0 1'.replace('/', `/${'64/'.repeat(62)}`))).toBeLessThanOrEqual(HEAVY_WORK);
    const start = work(`{ position(fen: "${START}") { paths(from: "g1", to: ["f3"]) { overlay { svg } } } }`);
    expect(start).toBeLessThanOrEqual(HEAVY_WORK);
  });

  it('counts a game by its half-moves, at most MAX_PLIES', () => {
    expect(pliesIn('1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *', limits)).toBe(6);
    expect(pliesIn('1. e4 {a comment, Nf3?} e5 *', limits)).toBe(2); // the reader's own tokens: comments are none
    expect(pliesIn('e4{}e5{}Nf3(Nc3 Nc6)Nc6 $1 Bb5!?', limits)).toBe(7); // no spaces, NAGs, marks; a variation's moves count too
    expect(pliesIn('1. e4 e5 '.repeat(1000), limits)).toBe(limits.maxPlies);
    const game = (pgn: string) => work('query($p: String!) { game(pgn: $p) { result } }', { p: pgn });
    expect(game('1. e4 e5 '.repeat(300))).toBeGreaterThan(game('1. e4 e5 *'));
  });
});
