/**
 * `chess-paths game FILE|-` on the built command: the Opera Game (Morphy, Paris 1858) printed as
 * its plies and journeys, a detour checked against the reference BFS on the position written out
 * by hand, `--json` with the API's fields, and the exit codes of a bad game (1, the move named),
 * a missing file (1) and a missing FILE (2), none with a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceParseSquare, referenceSolve } from '../packages/engine/test/support/reference-bfs.js';
import { DEFAULTS } from '../src/config.js';
import { ROOT } from './support/child-server.js';

const CLI = join(ROOT, 'dist', 'cli.js');
const OPERA = `[Event "A Night at the Opera"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 {a weak move} 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6
7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8
13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
`;

let dir: string;
let file: string;
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
  dir = mkdtempSync(join(tmpdir(), 'chess-paths-game-'));
  file = join(dir, 'opera.pgn');
  writeFileSync(file, OPERA);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[], input?: string) =>
  spawnSync(process.execPath, [CLI, 'game', ...args], { cwd: ROOT, encoding: 'utf8', input, timeout: 30_000 });

describe('chess-paths game', () => {
  it('prints the plies and the journeys with their detours', () => {
    const run = cli([file]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('33 plies, result 1-0');
    expect(run.stdout).toMatch(/^ {2}12\. O-O-O +Rd8$/m);
    expect(run.stdout).toMatch(/^ {2}17\. Rd8#$/m);
    expect(run.stdout).toContain('  white king e1: e1 c1\n');
    expect(run.stdout).toContain('  black knight b8: b8 d7 (captured at ply 25)\n');
    // The f1 bishop went f1 c4 b5 d7 in three moves. Before 6. Bc4 (after 5... dxe5) the board
    // is r n . q k b n r / p p p . . p p p / . . . . . . . . / . . . . p . . . /
    // . . . . P . . . / . . . . . Q . . / P P P . . P P P / R N B . K B . R, and the reference
    // BFS finds f1 to d7 in 2 (f1-b5-d7): a detour of one move.
    const board = { files: 8, ranks: 8 };
    const occupied = 'a8 b8 d8 e8 f8 g8 h8 a7 b7 c7 f7 g7 h7 e5 e4 f3 a2 b2 c2 f2 g2 h2 a1 b1 c1 e1 f1 h1'.split(' ');
    const passable = Array.from({ length: 64 }, () => true);
    for (const name of occupied) passable[referenceParseSquare(name, board)!] = false;
    passable[referenceParseSquare('f1', board)!] = true;
    const reference = referenceSolve({
      piece: 'BISHOP',
      ...board,
      passable,
      sources: [referenceParseSquare('f1', board)!],
      targets: [referenceParseSquare('d7', board)!],
    });
    expect(reference.distance).toBe(2);
    expect(run.stdout).toContain(
      '  white bishop f1: f1 c4 b5 d7 (captured at ply 30)\n    detour: moves 1-3 (f1 c4 b5 d7) took 3, the shortest path 2\n',
    );
  });

  it('--json gives the API fields, each journey with its detours, from standard input', () => {
    const run = cli(['-', '--json'], OPERA);
    expect(run.status).toBe(0);
    const game = JSON.parse(run.stdout);
    expect(game.result).toBe('1-0');
    expect(game.tags[1]).toEqual({ name: 'White', value: 'Paul Morphy' });
    expect(game.plies).toHaveLength(33);
    expect(game.plies[23]).toMatchObject({ number: 24, color: 'BLACK', san: 'Rd8', uci: 'a8d8' });
    expect(game.plies[22]).toMatchObject({ san: 'O-O-O', uci: 'e1c1', from: 'e1', to: 'c1' });
    expect(game.plies[32].position.fen).toBe('1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17');
    const bishop = game.journeys.find((j: { squares: string[] }) => j.squares[0] === 'f1');
    expect(bishop.detours).toEqual([{ first: 1, last: 3, moves: 3, distance: 2 }]);
    expect(game.journeys).toHaveLength(32);
  });

  it('refuses a bad game (1), a missing file (1) and a missing FILE (2) in one line, no stack', () => {
    const bad = cli(['-'], '1. e4 e5 2. Ke3 *');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('chess-paths: pgn: 2. Ke3 is not legal here (line 1, column 13)\n');
    const missing = cli([join(dir, 'none.pgn')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^chess-paths: FILE: ".*none\.pgn" does not exist\n$/);
    const usage = cli([]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("Run 'chess-paths game --help' for usage.");
    for (const run of [bad, missing, usage]) expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('refuses a file over the PGN limit by its size in bytes, before decoding it, and an empty one', () => {
    // Invalid UTF-8 would decode to three bytes a byte: the size said is the file's.
    const big = join(dir, 'big.bin');
    writeFileSync(big, Buffer.alloc(DEFAULTS.MAX_PGN_BYTES + 1, 0xff));
    const run = cli([big]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `chess-paths: FILE is ${DEFAULTS.MAX_PGN_BYTES + 1} bytes, over the limit of ${DEFAULTS.MAX_PGN_BYTES} bytes of PGN\n`,
    );
    const empty = cli(['-'], '');
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/^chess-paths: pgn: holds no game/);
  });
});
