/** Heavy questions shared by the tests: a king crossing a serpentine maze. */
import { squareName } from '../../src/index.js';

/**
 * A king crossing a serpentine maze on a `side` x `side` board (walls on every other rank, one
 * gap each, alternating sides): on 64 x 64 up to 2,000 steps, on 128 x 128 up to 8,000. `i`
 * varies the gaps and the target, so every query (up to 1,280 on 64 x 64, 320 on 32 x 32) is a
 * distinct problem.
 */
export function mazeQuery(i: number, side: 32 | 64 | 128 = 64) {
  const board = { files: side, ranks: side };
  const shifts = (side / 32) * 10;
  const shift = i % shifts;
  // Four squares a hex digit, most significant first.
  const open = (square: number): boolean => {
    const r = Math.floor(square / side);
    const gap = (r >> 1) % 2 === 0 ? side - 1 - shift : shift;
    return r % 2 === 0 || square % side === gap;
  };
  let digits = '';
  for (let top = side * side - 4; top >= 0; top -= 4) {
    let nibble = 0;
    for (let b = 3; b >= 0; b--) nibble = (nibble << 1) | (open(top + b) ? 1 : 0);
    digits += nibble.toString(16);
  }
  const target = squareName((side - 2) * side + (Math.floor(i / shifts) % side), board);
  return {
    piece: 'KING',
    board,
    from: ['a1'],
    to: [target],
    mask: `0x${digits}`,
  };
}
