/**
 * The package's main export: after a build, `import { solve } from '@chess-paths/engine'` works
 * from plain Node (Node resolves a package's own name through its `exports`). The root's
 * `npm test` builds first (its `pretest` script), so this checks the compiled output, not the
 * TypeScript source.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe("the package's main export", () => {
  it('exposes solve, solveBatch and the square helpers to plain Node', () => {
    const script = `
      import { solve, solveBatch, parseSquare, squareName, parseBitboard, formatBitboard } from '@chess-paths/engine';
      const r = solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });
      const board = { files: 8, ranks: 8 };
      console.log(JSON.stringify({
        distance: r.distance,
        layers: r.layers.map((l) => l.squares),
        batch: solveBatch([{ piece: 'KNIGHT', from: ['a1'], to: ['b3'] }]).map((x) => x.distance),
        e4: parseSquare('E4', board),
        name: squareName(28, board),
        bitboard: formatBitboard(parseBitboard('0x10000000', board), board),
      }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      distance: 4,
      layers: [['e4'], ['d3', 'd4', 'e5', 'f5'], ['c2', 'c3', 'f6', 'g6'], ['b1', 'b2', 'g7', 'h7'], ['a1', 'h8']],
      batch: [1],
      e4: 28,
      name: 'e4',
      bitboard: '0x0000000010000000',
    });
  });
});
