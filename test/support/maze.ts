/** Heavy questions shared by the tests: a king crossing a serpentine maze. */
import { squareName } from '../../src/engine/index.js';

/**
 * A king crossing a serpentine maze on a `side` x `side` board (walls on every other rank, one
 * gap each, alternating sides): on 64 x 64 up to 2,000 steps, about half a millisecond to solve;
 * counting its paths costs milliseconds. `i` varies the gaps and the target, so every query (up
 * to 1,280 on 64 x 64, 320 on 32 x 32) is a distinct problem.
 */
export function mazeQuery(i: number, side: 32 | 64 = 64) {
  const board = { files: side, ranks: side };
  const shifts = (side / 32) * 10;
  const shift = i % shifts;
  let mask = 0n;
  for (let r = 0; r < side; r++) {
    const gap = (r >> 1) % 2 === 0 ? side - 1 - shift : shift;
    for (let f = 0; f < side; f++) if (r % 2 === 0 || f === gap) mask |= 1n << BigInt(r * side + f);
  }
  const target = squareName((side - 2) * side + (Math.floor(i / shifts) % side), board);
  return {
    piece: 'KING',
    board,
    from: ['a1'],
    to: [target],
    mask: `0x${mask.toString(16).padStart((side * side) / 4, '0')}`,
  };
}
