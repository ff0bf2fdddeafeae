/**
 * `chess-paths solve --betza`: a fairy piece from the command line, run as the installed package
 * runs it (the built `dist/cli.js` in a child process; `npx vitest run test/cli.fairy.test.ts`
 * needs `npm run build`). Answers are compared with the library's result for the same query, and
 * the nightrider's numbers with the independent fairy reference; each refusal is one line on
 * stderr with the exit code of bad input (1), or of a command line not understood (2).
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type PathQuery, renderAscii, solve } from '@chess-paths/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { referenceFairySolve } from '../packages/engine/test/support/reference-betza.js';
import { referenceOpenBoard, referenceParseSquare } from '../packages/engine/test/support/reference-bfs.js';
import { drawBoards } from '../src/cli/boards.js';
import { DEFAULTS } from '../src/config.js';
import { ROOT } from './support/child-server.js';

const CLI = join(ROOT, 'dist', 'cli.js');

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
});

/** Runs `node dist/cli.js ...args` to completion. */
function cli(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
}

const NIGHTRIDER: PathQuery = { piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] };
const NIGHTRIDER_ARGS = ['solve', '--betza', 'NN', '--from', 'a1', '--to', 'h8'];

describe('chess-paths solve --betza', () => {
  it("solves a nightrider: its canonical text, then the library's answer, as the reference counts it", () => {
    const run = cli(...NIGHTRIDER_ARGS);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const board = { files: 8, ranks: 8 };
    const square = (name: string) => referenceParseSquare(name, board)!;
    const reference = referenceFairySolve({
      betza: 'NN',
      ...board,
      passable: referenceOpenBoard(board),
      sources: [square('a1')],
      targets: [square('h8')],
    });
    const result = solve(NIGHTRIDER);
    expect(result.distance).toBe(reference.distance);
    expect(result.pathCount).toBe(reference.pathCount);
    expect(run.stdout).toBe(
      [
        'piece: FAIRY (NN)',
        `distance: ${reference.distance}`,
        `path count: ${reference.pathCount}`,
        `smallest path: ${result.path!.squares.join(' ')}`,
        '',
        [...drawBoards(result, 80)].join(''),
      ].join('\n'),
    );
  });

  it('prints the canonical text, not the one typed, and takes --piece fairy (any case) with it', () => {
    const typed = cli('solve', '--piece', 'Fairy', '--betza', 'N0', '--from', 'a1', '--to', 'h8');
    expect(typed.status).toBe(0);
    expect(typed.stdout).toBe(cli(...NIGHTRIDER_ARGS).stdout);
    expect(typed.stdout.split('\n')[0]).toBe('piece: FAIRY (NN)');
  });

  it('--json gains betza: the canonical text, with the piece and key of the library', () => {
    const run = cli(...NIGHTRIDER_ARGS, '--json');
    expect(run.status).toBe(0);
    const json = JSON.parse(run.stdout);
    const result = solve(NIGHTRIDER);
    expect(json).toMatchObject({
      key: result.key,
      piece: 'FAIRY',
      betza: 'NN',
      distance: result.distance,
      pathCount: result.pathCount.toString(),
      path: { squares: result.path!.squares },
      overlay: { ascii: renderAscii(result) },
    });
    expect(Object.keys(json).slice(0, 3)).toEqual(['key', 'piece', 'betza']);
    // An orthodox piece has its Betza text too (null for pawns), as the API's PathResult.
    expect(JSON.parse(cli('solve', '--piece', 'king', '--from', 'e4', '--to', 'a1', '--json').stdout).betza).toBe('K');
    expect(
      JSON.parse(cli('solve', '--piece', 'white_pawn', '--from', 'e2', '--to', 'e4', '--json').stdout).betza,
    ).toBeNull();
  });

  it("answers a text of an orthodox piece as that piece, named with the piece's letter", () => {
    const run = cli('solve', '--betza', 'FW', '--from', 'e4', '--to', 'a1,h8');
    expect(run.status).toBe(0);
    const king = cli('solve', '--piece', 'king', '--from', 'e4', '--to', 'a1,h8');
    expect(run.stdout).toBe(`piece: KING (K)\n${king.stdout}`);
    const json = JSON.parse(cli('solve', '--betza', 'FW', '--from', 'e4', '--to', 'a1,h8', '--json').stdout);
    expect(json).toMatchObject({ piece: 'KING', betza: 'K' });
    expect(json.key).toBe(solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] }).key);
  });

  it('lists paths of a lame piece on a larger board with blocked squares', () => {
    const query: PathQuery = {
      piece: 'FAIRY',
      betza: 'nN',
      board: { files: 10, ranks: 10 },
      from: ['a1'],
      to: ['j10'],
      blocked: ['b1', 'e5'],
    };
    const expected = solve(query).paths({ first: 3 });
    const args = ['solve', '--betza', 'nN', '--board', '10x10', '--from', 'a1', '--to', 'j10', '--blocked', 'b1,e5'];
    const run = cli(...args, '--paths', '3');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('piece: FAIRY (nN)');
    const listed = expected.edges.map((edge) => `  ${edge.node.squares.join(' ')}`).join('\n');
    expect(run.stdout).toContain(`first 3 of ${expected.totalCount} paths:\n${listed}\n`);
  });

  it('says plainly, after the piece, when no path exists, and exits 0', () => {
    // Both of the nightrider's first leaps from a1 land on blocked squares.
    const run = cli(...NIGHTRIDER_ARGS, '--blocked', 'b3,c2');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('piece: FAIRY (NN)\nunreachable: no path from a1 to h8\n');
  });

  it(`takes a text of ${DEFAULTS.MAX_BETZA_LENGTH} characters, the API's default limit`, () => {
    const run = cli('solve', '--betza', 'N'.repeat(DEFAULTS.MAX_BETZA_LENGTH), '--from', 'a1', '--to', 'h8');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(cli(...NIGHTRIDER_ARGS).stdout);
  });
});

describe('fairy refusals', () => {
  const most = DEFAULTS.MAX_BETZA_LENGTH;
  const long = 'N'.repeat(most + 1);
  it.each([
    [['--piece', 'fairy'], '--piece: "fairy" needs --betza TEXT, the piece in Betza notation (e.g. --betza NN)'],
    [['--piece', 'king', '--betza', 'NN'], '--betza: "NN" is only for a fairy piece, not KING: leave --piece out'],
    [['--betza', 'pN'], `--betza: "pN" 'p' at 1 is a hopper before the leaper N: it needs an unlimited rider`],
    [['--betza', 'frK'], `--betza: "frK" 'K' at 3 keeps no leap of its W: its directions 'fr' allow none`],
    [['--betza', ''], '--betza: "" is empty: a piece needs at least one atom'],
    [
      ['--betza', long],
      // The text is shortened in the message: it never echoes a whole long argument.
      `--betza: "${long.slice(0, 76)}..." is ${most + 1} characters, over the limit of ${most} (the API's default MAX_BETZA_LENGTH)`,
    ],
  ])('%j exits 1 with one line naming the option', (args, message) => {
    const run = cli('solve', ...args, '--from', 'a1', '--to', 'h8');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`chess-paths: ${message}\n`);
  });

  it('neither --piece nor --betza is a command line not understood (exit 2)', () => {
    const run = cli('solve', '--from', 'a1', '--to', 'h8');
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "chess-paths solve: missing --piece (or --betza)\nRun 'chess-paths solve --help' for usage.\n",
    );
  });
});

describe('help', () => {
  it('documents --betza with the nightrider as an example', () => {
    const help = cli('solve', '--help').stdout;
    expect(help).toContain('Usage: chess-paths solve (--piece PIECE | --betza TEXT) --from SQUARES --to SQUARES');
    expect(help).toMatch(/--betza TEXT {7}a fairy piece in Betza notation/);
    expect(help).toContain(`at most ${DEFAULTS.MAX_BETZA_LENGTH}\n`);
    expect(help).toContain('chess-paths solve --betza NN --from a1 --to h8      (the nightrider)');
    expect(cli('--help').stdout).toContain('chess-paths solve --betza NN --from a1 --to h8\n');
  });
});
