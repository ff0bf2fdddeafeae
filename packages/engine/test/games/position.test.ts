/**
 * `positionQuery` with `avoidAttacked`, against an attack model written here from the rules
 * (path-semantics.md, "Position.paths"), sharing no code with the engine: on random positions,
 * the passable set is every square the other colour does not attack (attacks computed without
 * the moving piece, sliders stopping at the first occupied square, pawns attacking diagonally
 * ahead), plus `from` itself, where the piece already stands, attacked or not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBitboard } from '../../src/board/bitset.js';
import { parseFen } from '../../src/board/fen.js';
import { fileName } from '../../src/board/squares.js';
import { solve } from '../../src/core/solve.js';
import { positionQuery } from '../../src/games/position.js';

type Placed = { file: number; rank: number; letter: string };

const KING = [-1, 0, 1].flatMap((df) => [-1, 0, 1].map((dr) => [df, dr])).filter(([df, dr]) => df || dr);
const KNIGHT = [
  [1, 2],
  [2, 1],
  [-1, 2],
  [-2, 1],
  [1, -2],
  [2, -1],
  [-1, -2],
  [-2, -1],
];
const ROOK = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];
const BISHOP = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];

/** The squares `white` (or black) attacks, by the rules, on an 8 x 8 board without the piece at `skip`. */
function attacks(pieces: Placed[], white: boolean, skip: Placed): Set<string> {
  const others = pieces.filter((p) => p !== skip);
  const occupied = new Set(others.map((p) => `${p.file},${p.rank}`));
  const out = new Set<string>();
  const on = (f: number, r: number) => f >= 0 && f < 8 && r >= 0 && r < 8;
  for (const p of others) {
    if ((p.letter === p.letter.toUpperCase()) !== white) continue;
    const kind = p.letter.toLowerCase();
    const jumps = kind === 'k' ? KING : kind === 'n' ? KNIGHT : kind === 'p' ? [] : null;
    if (kind === 'p') {
      const dr = white ? 1 : -1;
      for (const df of [-1, 1]) if (on(p.file + df, p.rank + dr)) out.add(`${p.file + df},${p.rank + dr}`);
    } else if (jumps) {
      for (const [df, dr] of jumps) if (on(p.file + df, p.rank + dr)) out.add(`${p.file + df},${p.rank + dr}`);
    } else {
      const rays = kind === 'r' ? ROOK : kind === 'b' ? BISHOP : [...ROOK, ...BISHOP];
      for (const [df, dr] of rays) {
        for (let f = p.file + df, r = p.rank + dr; on(f, r); f += df, r += dr) {
          out.add(`${f},${r}`);
          if (occupied.has(`${f},${r}`)) break;
        }
      }
    }
  }
  return out;
}

/** A FEN's board field for pieces on 8 x 8. */
function fenOf(pieces: Placed[]): string {
  const rows: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const p = pieces.find((q) => q.file === file && q.rank === rank);
      if (!p) empty++;
      else {
        row += (empty || '') + p.letter;
        empty = 0;
      }
    }
    rows.push(row + (empty || ''));
  }
  return `${rows.join('/')} w - - 0 1`;
}

const position = fc
  .uniqueArray(
    fc.record({
      file: fc.integer({ min: 0, max: 7 }),
      rank: fc.integer({ min: 1, max: 6 }), // pawns off the first and last ranks, as FEN requires of none but keeps them moving
      letter: fc.constantFrom(...'KQRBNPkqrbnp'),
    }),
    { minLength: 1, maxLength: 10, selector: (p) => `${p.file},${p.rank}` },
  )
  .chain((pieces) => fc.tuple(fc.constant(pieces), fc.integer({ min: 0, max: pieces.length - 1 })));

describe('positionQuery with avoidAttacked', () => {
  it('passes every square the other colour does not attack, and the mover’s own square always', () => {
    fc.assert(
      fc.property(position, ([pieces, moverIndex]) => {
        const mover = pieces[moverIndex];
        const parsed = parseFen(fenOf(pieces));
        const name = (f: number, r: number) => `${fileName(f)}${r + 1}`;
        const query = positionQuery(parsed, name(mover.file, mover.rank), ['h8'], true);
        const mask = parseBitboard(query.mask!, parsed.board);
        const attacked = attacks(pieces, mover.letter !== mover.letter.toUpperCase(), mover);
        for (let r = 0; r < 8; r++) {
          for (let f = 0; f < 8; f++) {
            const v = r * 8 + f;
            const passable = ((mask[v >>> 5] >>> (v & 31)) & 1) === 1;
            const isFrom = f === mover.file && r === mover.rank;
            expect(passable, `${name(f, r)} in ${parsed.fen}`).toBe(isFrom || !attacked.has(`${f},${r}`));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('lets a king in check escape, but never along the checking line', () => {
    const parsed = parseFen('8/8/8/8/8/8/8/K1r5 w - - 0 1');
    const result = solve(positionQuery(parsed, 'a1', ['a2', 'b2', 'b1'], true));
    expect(result.distance).toBe(1);
    expect(result.sources.squares).toEqual(['a1']);
    expect(result.targets.squares).toEqual(['a2', 'b2']); // b1 is attacked: dropped
  });
});
