/**
 * The `chess-paths` command, run as the installed package runs it: the built `dist/cli.js` in a
 * child process (`npm test` builds first; `npx vitest run test/cli` needs `npm run build`). Every
 * answer is compared with the library's own result for the same query (and the seed's numbers
 * with the reference BFS), so the command is checked for printing the engine faithfully, not for
 * numbers written down here.
 */
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PathQuery, renderAscii, solve } from '@chess-paths/engine';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  referenceOpenBoard,
  referenceParseSquare,
  referenceSolve,
} from '../packages/engine/test/support/reference-bfs.js';
import { drawBoards } from '../src/cli/boards.js';
import { ROOT } from './support/child-server.js';

const CLI = join(ROOT, 'dist', 'cli.js');

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
});

/** Runs `node dist/cli.js ...args` to completion. */
function cli(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
}

/** No line of a Node stack trace (`    at fn (file:line)`). */
function expectNoStack(text: string): void {
  expect(text).not.toMatch(/^\s+at /m);
}

const SEED: PathQuery = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] };
const SEED_ARGS = ['solve', '--piece', 'king', '--from', 'e4', '--to', 'a1,h8'];

describe('chess-paths solve', () => {
  it('prints the seed example: distance, count, smallest path and the labelled boards; --plain the seed picture', () => {
    const run = cli(...SEED_ARGS);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const board = { files: 8, ranks: 8 };
    const square = (name: string) => referenceParseSquare(name, board)!;
    const reference = referenceSolve({
      piece: 'KING',
      ...board,
      passable: referenceOpenBoard(board),
      sources: [square('e4')],
      targets: [square('a1'), square('h8')],
    });
    const result = solve(SEED);
    expect(result.distance).toBe(reference.distance);
    expect(result.pathCount).toBe(reference.pathCount);
    const head = [
      `distance: ${reference.distance}`,
      `path count: ${reference.pathCount}`,
      `smallest path: ${result.path!.squares.join(' ')}`,
      '',
    ].join('\n');
    // Not a terminal: the boards laid out in 80 columns.
    expect(run.stdout).toBe(`${head}\n${[...drawBoards(result, 80)].join('')}`);
    expect(run.stdout).toContain('distance: 4\npath count: 8\nsmallest path: e4 d3 c2 b1 a1\n');
    // The seed's own picture, as the API's Overlay.ascii.
    expect(cli(...SEED_ARGS, '--plain').stdout).toBe(`${head}\n${renderAscii(result)}\n`);
  });

  it('--json gives the API field names and the library values, pathCount as a decimal string', () => {
    const run = cli(...SEED_ARGS, '--json');
    expect(run.status).toBe(0);
    const json = JSON.parse(run.stdout);
    const result = solve(SEED);
    expect(json).toMatchObject({
      key: result.key,
      piece: 'KING',
      board: { files: 8, ranks: 8 },
      mask: result.mask,
      reachable: true,
      distance: result.distance,
      pathCount: result.pathCount.toString(),
      path: { squares: result.path!.squares },
      sources: { bitboard: result.sources.bitboard, squares: ['e4'], count: 1 },
      targets: { squares: ['a1', 'h8'], count: 2 },
      overlay: { ascii: renderAscii(result) },
    });
    expect(json.pathCount).toBe('8');
    // The distance map of every square, as PathResult.distances: e4 0, a1 and h8 4.
    expect(json.distances).toEqual(result.distances);
    expect([json.distances[28], json.distances[0], json.distances[63]]).toEqual([0, 4, 4]);
    expect(json.layers).toEqual(
      result.layers.map((layer) => ({ bitboard: layer.bitboard, squares: layer.squares, count: layer.count })),
    );
    expect(json).not.toHaveProperty('paths');
  });

  it('--paths 3 lists the first three paths in lexicographic order, in text and JSON', () => {
    const expected = solve(SEED).paths({ first: 3 });
    const text = cli(...SEED_ARGS, '--paths', '3');
    expect(text.status).toBe(0);
    const listed = expected.edges.map((edge) => `  ${edge.node.squares.join(' ')}`).join('\n');
    expect(text.stdout).toContain(`first 3 of 8 paths:\n${listed}\n`);

    const json = JSON.parse(cli(...SEED_ARGS, '--paths', '3', '--json').stdout);
    expect(json.paths.edges).toEqual(
      expected.edges.map((edge) => ({ cursor: edge.cursor, node: { squares: edge.node.squares } })),
    );
    expect(json.paths.totalCount).toBe('8');
    expect(json.paths.pageInfo).toEqual(expected.pageInfo);

    // --after pages on from a cursor, as the API's `after` does.
    const next = JSON.parse(
      cli(...SEED_ARGS, '--paths', '2', '--after', expected.pageInfo.endCursor!, '--json').stdout,
    );
    const page = solve(SEED).paths({ first: 2, after: expected.pageInfo.endCursor });
    expect(next.paths.edges.map((edge: { node: { squares: string[] } }) => edge.node.squares)).toEqual(
      page.edges.map((edge) => edge.node.squares),
    );
  });

  it('takes a board size, blocked squares (comma-separated or repeated) and any case of piece name', () => {
    const query: PathQuery = {
      piece: 'KNIGHT',
      board: { files: 10, ranks: 10 },
      from: ['a1'],
      to: ['j10'],
      blocked: ['c2', 'd5'],
    };
    const result = solve(query);
    const args = ['solve', '--piece', 'KNIGHT', '--board', '10x10', '--from', 'a1', '--to', 'j10'];
    const run = cli(...args, '--blocked', 'c2,d5', '--json');
    expect(run.status).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({
      key: result.key,
      board: { files: 10, ranks: 10 },
      distance: result.distance,
      pathCount: result.pathCount.toString(),
      path: { squares: result.path!.squares },
    });
    const repeated = JSON.parse(cli(...args, '--blocked', 'c2', '--blocked', 'd5', '--json').stdout);
    expect(repeated.key).toBe(result.key);
    const text = cli(...args, '--blocked', 'c2,d5');
    expect(text.stdout).toContain([...drawBoards(result, 80)].join(''));
    expect(text.stdout).toMatch(/^ 2 \. \. # /m);
    expect(cli(...args, '--blocked', 'c2,d5', '--plain').stdout).toContain(renderAscii(result));
  });

  it('takes a FEN whose pieces block, and a white_pawn', () => {
    const fen = '8/8/8/8/8/8/1P6/RNBQKBNR w - - 0 1';
    const result = solve({ piece: 'ROOK', from: ['a1'], to: ['h8'], fen });
    const run = cli('solve', '--piece', 'Rook', '--from', 'a1', '--to', 'h8', '--fen', fen, '--json');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      key: result.key,
      distance: result.distance,
      pathCount: result.pathCount.toString(),
      path: { squares: result.path!.squares },
    });
    expect(result.path!.squares).toEqual(['a1', 'a8', 'h8']);

    const pawn = cli('solve', '--piece', 'white_pawn', '--from', 'e2', '--to', 'e4');
    expect(pawn.status).toBe(0);
    expect(pawn.stdout).toContain('distance: 1\npath count: 1\nsmallest path: e2 e4\n');
  });

  it('says plainly when no path exists, and exits 0', () => {
    const run = cli('solve', '--piece', 'bishop', '--from', 'e4', '--to', 'a1,h2');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('unreachable: no path from e4 to a1,h2\n');
    const json = JSON.parse(cli('solve', '--piece', 'bishop', '--from', 'e4', '--to', 'h2', '--json').stdout);
    expect(json).toMatchObject({ reachable: false, distance: null, pathCount: '0', path: null, layers: [] });
  });
});

describe('bad input and bad command lines', () => {
  it.each([
    [['--from', 'z9', '--to', 'a1'], '--from: "z9" is not a square on an 8 x 8 board'],
    [['--from', 'e4', '--to', 'a1', '--board', '300x8'], '--board (files): 300 is not a board side from 1 to 256'],
    [['--from', 'e4', '--to', 'a1', '--board', 'big'], '--board: "big" is not a board size FILESxRANKS'],
    [['--from', 'e4', '--to', 'a1', '--mask', '0xzz'], '--mask: "0xzz" is not a bitboard'],
    [['--from', 'e4', '--to', 'a1', '--blocked', 'q1'], '--blocked: "q1" is not a square on an 8 x 8 board'],
    [['--from', 'e4', '--to', 'a1', '--fen', 'garbage'], '--fen: "garbage" has 1 rank'],
    [['--from', 'e4', '--to', 'a1', '--paths', 'x'], '--paths: "x" is not a non-negative integer'],
  ])('%j exits 1 with the engine message naming the option, no stack', (args, message) => {
    const run = cli('solve', '--piece', 'king', ...args);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expectNoStack(run.stderr);
  });

  it('an unknown piece lists the pieces', () => {
    const run = cli('solve', '--piece', 'dragon', '--from', 'e4', '--to', 'a1');
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'chess-paths: --piece: "dragon" is not a piece; expected one of king, queen, rook, bishop, knight, white_pawn, black_pawn, fairy\n',
    );
  });

  it.each([
    [['solve', '--piece', 'king', '--from', 'e4'], 'missing --to', 'solve'],
    [['solve', '--from', 'e4'], 'missing --piece (or --betza), --to', 'solve'],
    [[...SEED_ARGS, '--bogus'], "Unknown option '--bogus'", 'solve'],
    [[...SEED_ARGS, 'extra'], 'Unexpected argument', 'solve'],
    [['serve', '--port', '3'], "Unknown option '--port'", 'serve'],
    [['frobnicate'], 'unknown command "frobnicate"', undefined],
  ])('%j exits 2 with a usage hint', (args, message, command) => {
    const run = cli(...args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain(`Run 'chess-paths${command ? ` ${command}` : ''} --help' for usage.`);
    expectNoStack(run.stderr);
  });

  it('no command prints the usage on stderr and exits 2', () => {
    const run = cli();
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Usage: chess-paths <command>');
  });
});

describe('help and version', () => {
  it.each([
    [['--help'], 'Usage: chess-paths <command>'],
    [['-h'], 'Usage: chess-paths <command>'],
    [['help', 'solve'], 'Usage: chess-paths solve'],
    [['solve', '--help'], 'Usage: chess-paths solve'],
    [['solve', '--piece', 'king', '--bogus', '-h'], 'Usage: chess-paths solve'],
    [['serve', '--help'], 'Usage: chess-paths serve'],
  ])('%j prints help on stdout and exits 0', (args, heading) => {
    const run = cli(...args);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.startsWith(heading)).toBe(true);
  });

  it('every option solve accepts is in its help', () => {
    const help = cli('solve', '--help').stdout;
    for (const option of [
      '--piece',
      '--betza',
      '--from',
      '--to',
      '--board',
      '--mask',
      '--blocked',
      '--fen',
      '--paths',
      '--json',
      '--picture',
      '--no-picture',
      '--plain',
      '--width',
      '--svg',
      '--png',
      '--png-width',
    ]) {
      expect(help).toContain(option);
    }
  });

  it("--version prints package.json's version", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-v']) {
      const run = cli(flag);
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(`${version}\n`);
    }
  });
});

describe('the installed command', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'chess-paths-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts with a node shebang and runs through a bin symlink', () => {
    expect(readFileSync(CLI, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    // What npm makes of package.json's bin: node_modules/.bin/chess-paths -> dist/cli.js.
    const link = join(dir, 'chess-paths');
    symlinkSync(CLI, link);
    const run = spawnSync(process.execPath, [link, ...SEED_ARGS], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('distance: 4\n');
  });

  it('serve starts the server from the environment, answers /health and stops on SIGTERM', {
    timeout: 150_000,
  }, async () => {
    const child = spawn(process.execPath, [CLI, 'serve'], {
      cwd: dir,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        DATABASE_URL: `file:${join(dir, 'serve.db')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let log = '';
      child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      // PORT=0: the server picks a port and logs its URL in the "listening" line (pino JSON).
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "listening" line: ${log}`)), 60_000);
        child.stdout.on('data', (chunk: Buffer) => {
          log += chunk.toString();
          const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(log);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        child.once('exit', () => reject(new Error(`serve exited while starting: ${log}`)));
      });
      // /health is 503 until the database is open: poll for the 200, however long that takes (30 s at most).
      await vi.waitFor(async () => expect((await fetch(`${url}/health`)).status).toBe(200), {
        timeout: 30_000,
        interval: 25,
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
