/**
 * `chess-paths solve` sized for where it writes, end to end (the built `dist/cli.js`): on a
 * terminal (a pseudo-terminal of a chosen size, test/support/cli-terminal.ts) the boards are
 * drawn when they fit and wrap to its width, else one line says how to ask for them; to a pipe
 * a 256 x 256 question answers in a few kilobytes; `--svg` and `--png` write the API's picture,
 * with the text or with `--json`; no progress is written when standard error is not a terminal.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PathQuery, solve } from '@chess-paths/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWellFormedXml } from '../packages/engine/test/support/xml.js';
import { drawBoards } from '../src/cli/boards.js';
import { drawSvg } from '../src/graphql/work/pictures.js';
import { svgToPng } from '../src/graphql/work/raster.js';
import { ROOT } from './support/child-server.js';
import { CLI, requireBuiltCli } from './support/cli-process.js';
import { HAS_SCRIPT, runOnTerminal } from './support/cli-terminal.js';

/** Runs the command with pipes for its three streams. */
function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
}

const SEED: PathQuery = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] };
const SEED_ARGS = ['solve', '--piece', 'king', '--from', 'e4', '--to', 'a1,h8'];
const SEED_HEAD = 'distance: 4\npath count: 8\nsmallest path: e4 d3 c2 b1 a1\n\n';
const KNIGHT_256 = ['solve', '--piece', 'knight', '--board', '256x256', '--from', 'a1', '--to', 'iv256'];
const KING_256 = ['solve', '--piece', 'king', '--board', '256x256', '--from', 'a1', '--to', 'iv256'];

let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), 'chess-paths-terminal-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!HAS_SCRIPT)('on a terminal', () => {
  it('draws the boards wrapped to its width', () => {
    const boards = (width: number) => [...drawBoards(solve(SEED), width)].join('');
    const wide = runOnTerminal(SEED_ARGS, { columns: 100, rows: 40 });
    expect(wide.status).toBe(0);
    expect(wide.screen).toBe(`${SEED_HEAD}${boards(100)}`);
    // 100 columns hold the five boards of 17 columns side by side; 40 columns two.
    expect(wide.screen).toContain(
      '\nstep 0              step 1              step 2              step 3              step 4\n',
    );
    const narrow = runOnTerminal(SEED_ARGS, { columns: 40, rows: 40 });
    expect(narrow.screen).toBe(`${SEED_HEAD}${boards(40)}`);
    expect(narrow.screen).toContain('\nstep 0              step 1\n');
    expect(Math.max(...narrow.screen.split('\n').map((line) => line.length))).toBeLessThanOrEqual(40);
  });

  it('leaves out boards wider than it, in one line saying how to ask for them', () => {
    const run = runOnTerminal(KNIGHT_256, { columns: 120, rows: 40 });
    expect(run.status).toBe(0);
    expect(run.screen).toContain(
      '\npicture left out: 771 columns wide, more than 120 (--picture to draw, --svg FILE for an image)\n',
    );
    expect(Buffer.byteLength(run.screen)).toBeLessThan(4096);
    expect(run.screen).not.toContain('step 0');
  });

  it('leaves out a picture taller than four screens, and draws it on a taller terminal', () => {
    const args = ['solve', '--piece', 'king', '--board', '30x30', '--from', 'a1', '--to', 'ad30'];
    const run = runOnTerminal(args, { columns: 100, rows: 40 });
    expect(run.screen).toContain('picture left out: 991 lines, over 4 screens');
    const tall = runOnTerminal(args, { columns: 100, rows: 250 });
    expect(tall.screen).toContain('\nstep 29\n');
    expect(tall.screen).not.toContain('left out');
  });

  it('--picture draws what does not fit, --no-picture draws nothing and says nothing', () => {
    const forced = runOnTerminal([...SEED_ARGS, '--picture'], { columns: 12, rows: 10 });
    expect(forced.screen).toBe(`${SEED_HEAD}${[...drawBoards(solve(SEED), 12)].join('')}`);
    const none = runOnTerminal([...KNIGHT_256, '--no-picture'], { columns: 80, rows: 24 });
    expect(none.status).toBe(0);
    expect(none.screen).toMatch(/^distance: 170\npath count: \d+\nsmallest path: a1 c2 .* iv256\n$/);
  });

  it('writes no progress when standard error is a file, and none for quick work on the terminal', () => {
    const errors = join(dir, 'stderr.txt');
    const run = runOnTerminal([...KING_256, '--picture', '--paths', '1000'], { columns: 80, rows: 24 }, errors);
    expect(run.status).toBe(0);
    expect(readFileSync(errors, 'utf8')).toBe('');
    expect(runOnTerminal(SEED_ARGS, { columns: 80, rows: 24 }).screen).not.toContain('\r');
  });
});

describe('to a pipe', () => {
  it.each([
    ['knight', KNIGHT_256],
    ['king', KING_256],
  ])('answers a 256 x 256 question for a %s in a few kilobytes, saying how to draw it', (_, args) => {
    const run = cli(...args);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    expect(Buffer.byteLength(run.stdout)).toBeLessThan(4096);
    expect(run.stdout).toMatch(
      /\npicture left out: about \d+\.\d MiB, over 256 KiB for a file or a pipe \(--picture to draw, --svg FILE for an image\)\n$/,
    );
  });

  it('draws a picture up to 256 KiB, and a larger one with --picture, in 80 columns or --width', () => {
    const small = ['solve', '--piece', 'king', '--board', '32x32', '--from', 'a1', '--to', 'af32'];
    const result = solve({ piece: 'KING', board: { files: 32, ranks: 32 }, from: ['a1'], to: ['af32'] });
    expect(cli(...small).stdout).toContain([...drawBoards(result, 80)].join(''));
    expect(cli(...small, '--width', '200').stdout).toContain([...drawBoards(result, 200)].join(''));
    const large = ['solve', '--piece', 'king', '--board', '64x64', '--from', 'a1', '--to', 'bl64'];
    expect(cli(...large).stdout).toContain('picture left out: about');
    const forced = cli(...large, '--picture');
    expect(forced.stdout).toContain('\nstep 63\n');
    expect(Buffer.byteLength(forced.stdout)).toBeGreaterThan(256 * 1024);
  });

  it('writes no progress on a standard error that is not a terminal, however long the work', () => {
    const run = spawnSync(process.execPath, [CLI, ...KING_256, '--picture', '--paths', '1000'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });
});

describe('--svg FILE', () => {
  it("writes the API's picture (with the smallest path and the FEN's pieces) and says so", () => {
    const file = join(dir, 'seed.svg');
    const run = cli(...SEED_ARGS, '--svg', file);
    expect(run.status).toBe(0);
    const svg = readFileSync(file, 'utf8');
    expect(checkWellFormedXml(svg)).toBe('svg');
    expect(svg).toBe(drawSvg(solve(SEED), { path: true }));
    expect(run.stdout).toMatch(new RegExp(`\\nsvg: ${file} \\(\\d+ KiB\\)\\n$`));

    const fen = '8/8/8/8/8/8/1P6/RNBQKBNR w - - 0 1';
    const rook = join(dir, 'rook.svg');
    expect(cli('solve', '--piece', 'rook', '--from', 'a1', '--to', 'h8', '--fen', fen, '--svg', rook).status).toBe(0);
    expect(readFileSync(rook, 'utf8')).toBe(
      drawSvg(solve({ piece: 'ROOK', from: ['a1'], to: ['h8'], fen }), { fen, path: true }),
    );
  });

  it('with --json: the JSON unchanged on stdout, the picture in the file', () => {
    const file = join(dir, 'json.svg');
    const plain = cli(...SEED_ARGS, '--json');
    const run = cli(...SEED_ARGS, '--json', '--svg', file, '--no-picture', '--width', '20');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(plain.stdout);
    expect(JSON.parse(run.stdout).distance).toBe(4);
    expect(readFileSync(file, 'utf8')).toBe(drawSvg(solve(SEED), { path: true }));
  });

  it('of a 256 x 256 board: the whole picture, bounded output', () => {
    const file = join(dir, 'large.svg');
    const run = cli(...KNIGHT_256, '--svg', file);
    expect(run.status).toBe(0);
    expect(Buffer.byteLength(run.stdout)).toBeLessThan(4096);
    expect(checkWellFormedXml(readFileSync(file, 'utf8'))).toBe('svg');
  });
});

/** A PNG's width and height from its header, after checking its signature and its end. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  expect(bytes.toString('latin1', bytes.length - 8, bytes.length - 4)).toBe('IEND');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('--png FILE', () => {
  it("writes the API's picture through the service's rasteriser, 1200 pixels wide or --png-width", () => {
    const file = join(dir, 'seed.png');
    const run = cli(...SEED_ARGS, '--png', file);
    expect(run.status).toBe(0);
    const png = readFileSync(file);
    expect(pngSize(png).width).toBe(1200);
    expect(png.equals(Buffer.from(svgToPng(drawSvg(solve(SEED), { path: true }), { width: 1200 })))).toBe(true);
    expect(run.stdout).toMatch(new RegExp(`\\npng: ${file} \\(1200 pixels wide, \\d+ KiB\\)\\n$`));
    const narrow = join(dir, 'narrow.png');
    expect(cli(...SEED_ARGS, '--png', narrow, '--png-width', '300').status).toBe(0);
    expect(pngSize(readFileSync(narrow)).width).toBe(300);
  });

  it('with --json and --svg: the JSON unchanged, both files written', () => {
    const [png, svg] = [join(dir, 'both.png'), join(dir, 'both.svg')];
    const run = cli(...SEED_ARGS, '--json', '--png', png, '--svg', svg);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(cli(...SEED_ARGS, '--json').stdout);
    expect(pngSize(readFileSync(png)).width).toBe(1200);
    expect(checkWellFormedXml(readFileSync(svg, 'utf8'))).toBe('svg');
  });
});

describe('bad picture options', () => {
  it.each([
    [
      ['--svg', '/nonexistent-dir/x.svg'],
      1,
      'chess-paths: --svg: "/nonexistent-dir/x.svg" cannot be written: ENOENT\n',
    ],
    [['--width', '0'], 1, 'chess-paths: --width: "0" is not a number of columns from 1 to 100000\n'],
    [['--width', 'wide'], 1, 'chess-paths: --width: "wide" is not a number of columns from 1 to 100000\n'],
    [
      ['--width'],
      2,
      "chess-paths solve: Option '--width <value>' argument missing\nRun 'chess-paths solve --help' for usage.\n",
    ],
    [
      ['--png', join(tmpdir(), 'never-written.png'), '--png-width', '8192'],
      1,
      /^chess-paths: --png-width: 8192 makes this picture \d+ pixels tall, over the limit of 67108864 pixels\n$/,
    ],
    [
      ['--png', 'x.png', '--png-width', '10'],
      1,
      'chess-paths: --png-width: "10" is not a width in pixels from 16 to 8192\n',
    ],
    [
      ['--png-width', '300'],
      2,
      "chess-paths solve: --png-width needs --png\nRun 'chess-paths solve --help' for usage.\n",
    ],
    [['--svg', ''], 1, 'chess-paths: --svg: "" names no file\n'],
  ])('%j exits %i naming the option', (args, status, message) => {
    const run = cli(...SEED_ARGS, ...args);
    expect(run.status).toBe(status);
    expect(run.stdout).toBe('');
    if (typeof message === 'string') expect(run.stderr).toBe(message);
    else expect(run.stderr).toMatch(message);
  });
});
