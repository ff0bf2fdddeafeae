/**
 * `chess-paths game FILE|-` on the built command: the Opera Game (Morphy, Paris 1858) printed as
 * its plies, its ending and its pieces with their maneuvers (none a detour: the whole-journey
 * reading called the f1 bishop's three separate moves one); the Saavedra rook's detour with its
 * checks named, and the game back as annotated PGN; a file of several games a line each with a
 * bad one named and the file counted; `--json` with the API's fields; and the exit codes of a bad
 * game (1, the move named), a missing file (1) and a missing FILE (2), none with a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGame } from '@chess-paths/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAAVEDRA } from '../packages/engine/test/support/famous-games.js';
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
  it('prints the plies, how the game ended, and every piece with its maneuvers', () => {
    const run = cli([file]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('33 plies, result 1-0, checkmate');
    expect(run.stdout).toMatch(/^ {2}12\. O-O-O +Rd8$/m);
    expect(run.stdout).toMatch(/^ {2}17\. Rd8#$/m);
    expect(run.stdout).toContain('  white king e1: e1 c1\n');
    expect(run.stdout).toContain('  black knight b8: b8 d7 (captured by 13. Rxd7)\n');
    // The f1 bishop's f1-c4-b5-d7 is three moves months apart, not one trip: no maneuver, no detour.
    expect(run.stdout).toContain('  white bishop f1: f1 c4 b5 d7 (captured by 15... Nxd7)\n  white');
    expect(run.stdout).not.toContain('detour');
  });

  it('names a detour, its checks, and prints the game back annotated for PGN readers', () => {
    const saavedra = join(dir, 'saavedra.pgn');
    writeFileSync(saavedra, SAAVEDRA);
    const run = cli([saavedra]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      '    moves 1-6 (d5 d6 d5 d4 d3 d4 a4): a detour: 6 moves where 5 stayed open (d5 d1 b1 b2 a2 a4); checks with 1... Rd6+, 2... Rd5+, 3... Rd4+, 4... Rd3+\n',
    );
    expect(run.stdout).toContain('    moves 1-4 (b6 b5 b4 b3 c2): the shortest way (4 moves)\n');
    const annotated = cli(['--annotate', saavedra]);
    expect(annotated.status).toBe(0);
    expect(annotated.stdout).toContain('Ra4\n{d5-d6-d5-d4-d3-d4-a4: 6 moves where 5 stayed open');
    expect(readGame(annotated.stdout).plies.map((p) => p.uci)).toEqual(readGame(SAAVEDRA).plies.map((p) => p.uci));
  });

  it('reads a file of many games a game at a time: a line each, a bad one named, the whole file counted', () => {
    const month = join(dir, 'month.pgn');
    writeFileSync(month, [OPERA, SAAVEDRA, '[Event "bad"]\n\n1. e4 e5 2. Ke3 *', OPERA].join('\n'));
    const run = cli([month]);
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      'game 1: Paul Morphy - Duke Karl / Count Isouard, A Night at the Opera ?, 1-0, 33 plies: 5 maneuvers, 0 detours',
      'game 2: ? - ?, ? ?, 1-0, 13 plies: 2 maneuvers, 1 detours (rook 1)',
      'game 3 (line 12): not read: pgn: 2. Ke3 is not legal here (line 3, column 13)',
      'game 4: Paul Morphy - Duke Karl / Count Isouard, A Night at the Opera ?, 1-0, 33 plies: 5 maneuvers, 0 detours',
      '',
      '3 games read, 1 not read, 79 plies: 12 maneuvers, 1 detours (rook 1), 0 ways closed by the opponent',
      '',
    ]);
    const lines = cli(['--json', month]).stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[1]).journeys.find((j: { role: string }) => j.role === 'ROOK').maneuvers[0].verdict).toBe(
      'DETOUR',
    );
  });

  it('--json gives the API fields, each journey with its maneuvers, from standard input', () => {
    const run = cli(['-', '--json'], OPERA);
    expect(run.status).toBe(0);
    const game = JSON.parse(run.stdout);
    expect(game.result).toBe('1-0');
    expect(game.boardEnding).toBe('CHECKMATE');
    expect(game.tags[1]).toEqual({ name: 'White', value: 'Paul Morphy' });
    expect(game.plies).toHaveLength(33);
    expect(game.plies[23]).toMatchObject({ number: 24, color: 'BLACK', san: 'Rd8', uci: 'a8d8' });
    expect(game.plies[22]).toMatchObject({ san: 'O-O-O', uci: 'e1c1', from: 'e1', to: 'c1' });
    expect(game.plies[5]).toMatchObject({ san: 'Bg4', comments: ['a weak move'] });
    expect(game.plies[32].position.fen).toBe('1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17');
    expect(game.journeys).toHaveLength(32);
    expect(game.journeys.every((j: { maneuvers: unknown[] }) => Array.isArray(j.maneuvers))).toBe(true);
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

  it('refuses a game over the PGN limit by its size in bytes, before reading it, and an empty file', () => {
    // One game over the limit (its line and newline): refused by its size, its text never kept.
    const big = join(dir, 'big.pgn');
    writeFileSync(big, `${'a'.repeat(DEFAULTS.MAX_PGN_BYTES + 1)}\n`);
    const run = cli([big]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `chess-paths: FILE holds a game of ${DEFAULTS.MAX_PGN_BYTES + 2} bytes, over the limit of ${DEFAULTS.MAX_PGN_BYTES} bytes of PGN\n`,
    );
    const empty = cli(['-'], '');
    expect(empty.status).toBe(1);
    expect(empty.stderr).toBe('chess-paths: FILE: "-" holds no game\n');
  });
});
