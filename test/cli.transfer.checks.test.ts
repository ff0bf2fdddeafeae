/**
 * `chess-paths import` refuses what the service would never have written, and `export` writes
 * where it is told: the built command in a child process, on SQLite files of the test's own.
 * An analysis a save would refuse, or a cached result that is not its question's answer, is
 * refused with its line before anything is written; an import refused later (over a budget)
 * leaves no new file or directory behind; an export through a symbolic link writes the file it
 * names and keeps the link, and one into a FIFO or /dev/stdout writes into it.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, expectNoStack, requireBuiltCli, runCli } from './support/cli-process.js';
import { analysisLine, cachedResultLine, exportFile } from './support/export-lines.js';
import { tempDir } from './support/store-fixtures.js';

beforeAll(requireBuiltCli);

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
const dir = () => {
  const made = tempDir('chess-paths-cli-checks-');
  cleanups.push(made.cleanup);
  return made.dir;
};

const KNIGHT = { piece: 'KNIGHT', from: ['g8'], to: ['e5'] } as const;

describe('chess-paths import: the content of each row', () => {
  it('refuses an analysis a save would refuse, with its line, before creating anything', async () => {
    const home = dir();
    const file = join(home, 'edited.jsonl');
    const big = { piece: 'KING', from: ['a1'], to: ['b2'], board: { files: 300, ranks: 300 } };
    writeFileSync(
      file,
      exportFile([
        analysisLine({ id: 'fine' }),
        analysisLine({ id: 'poison', queries: [big], resultKeys: ['0'.repeat(64)] }),
      ]),
    );
    const run = await runCli(['import', '--database', `file:${join(home, 'new', 'x.db')}`, file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'chess-paths import: line 3: the analysis "poison": queries[0].board.files: files 300 is over the limit of 64 (MAX_BOARD_SIDE)\n',
    );
    expectNoStack(run.stderr);
    expect(existsSync(join(home, 'new'))).toBe(false);

    writeFileSync(file, exportFile([analysisLine({ title: 'a\ud800b' })]));
    const surrogate = await runCli(['import', '--database', `file:${join(home, 'x.db')}`, file]);
    expect(surrogate.status).toBe(1);
    expect(surrogate.stderr).toMatch(
      /^chess-paths import: line 2: the analysis field "title" holds an unpaired UTF-16 surrogate/,
    );
  });

  it('refuses a cached result whose answer is not its question’s, and takes the same row unedited', async () => {
    const home = dir();
    const file = join(home, 'cache.jsonl');
    const database = `file:${join(home, 'x.db')}`;
    writeFileSync(file, exportFile([analysisLine(), cachedResultLine(KNIGHT, { pathCount: '999' })]));
    const refused = await runCli(['import', '--database', database, file]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /^chess-paths import: line 3: the cached result [0-9a-f]{64} says 999 shortest paths, but its question has 6\n$/,
    );
    expect(existsSync(join(home, 'x.db'))).toBe(false);

    writeFileSync(file, exportFile([analysisLine(), cachedResultLine(KNIGHT)]));
    const taken = await runCli(['import', '--database', database, file]);
    expect(taken.stderr).toBe('');
    expect(taken.stdout).toMatch(
      /: 1 analysis added, 0 already there and equal; 1 cached result added, 0 already there\n$/,
    );
  });

  it('leaves no new file or directory when the import is refused after opening the database', async () => {
    const home = dir();
    const file = join(home, 'many.jsonl');
    writeFileSync(
      file,
      exportFile([
        analysisLine({ id: 'a', notes: 'n'.repeat(600) }),
        analysisLine({ id: 'b', notes: 'n'.repeat(600) }),
      ]),
    );
    const run = await runCli(['import', '--database', `file:${join(home, 'made', 'deeper', 'x.db')}`, file], {
      env: { ANALYSES_MAX_BYTES: '1000' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/over the limit of 1000 \(ANALYSES_MAX_BYTES\); nothing was imported\n$/);
    expect(existsSync(join(home, 'made'))).toBe(false);

    // A database that was there stays, as it was.
    mkdirSync(join(home, 'kept'));
    const kept = `file:${join(home, 'kept', 'x.db')}`;
    writeFileSync(join(home, 'one.jsonl'), exportFile([analysisLine({ id: 'c' })]));
    expect((await runCli(['import', '--database', kept, join(home, 'one.jsonl')])).status).toBe(0);
    const again = await runCli(['import', '--database', kept, file], { env: { ANALYSES_MAX_BYTES: '1000' } });
    expect(again.status).toBe(1);
    const exported = await runCli(['export', '--database', kept]);
    expect(exported.stdout).toContain('"id":"c"');
    expect(exported.stdout).toContain('{"type":"end","analyses":1,"cachedResults":0}');
  });
});

describe('chess-paths export --out: where it writes', () => {
  async function databaseWithOne(home: string): Promise<string> {
    const database = `file:${join(home, 'x.db')}`;
    writeFileSync(join(home, 'one.jsonl'), exportFile([analysisLine({ id: 'only' })]));
    expect((await runCli(['import', '--database', database, join(home, 'one.jsonl')])).status).toBe(0);
    return database;
  }

  it('through a symbolic link, into the file it names (made if need be), keeping the link', async () => {
    const home = dir();
    const database = await databaseWithOne(home);
    mkdirSync(join(home, 'real'));
    for (const [link, target] of [
      ['to-existing.jsonl', join(home, 'real', 'existing.jsonl')],
      ['to-missing.jsonl', join(home, 'real', 'missing.jsonl')],
    ]) {
      if (link === 'to-existing.jsonl') writeFileSync(target, 'old content\n');
      symlinkSync(target, join(home, link));
      const run = await runCli(['export', '--database', database, '--out', join(home, link)]);
      expect(run.status, run.stderr).toBe(0);
      expect(lstatSync(join(home, link)).isSymbolicLink()).toBe(true);
      expect(readFileSync(target, 'utf8')).toContain('"id":"only"');
    }
  });

  it('into /dev/stdout when it is a pipe, as a shell would', async () => {
    const home = dir();
    const database = await databaseWithOne(home);
    // Through a shell's pipe (a child process's own standard output is a socket, not a pipe).
    const run = spawnSync(
      'sh',
      ['-c', '"$0" "$1" export --database "$2" --out /dev/stdout | cat', process.execPath, CLI, database],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^exported 1 analyses from .* to \/dev\/stdout\n$/);
    expect(run.stdout).toContain('"id":"only"');
    expect(run.stdout).toContain('{"type":"end","analyses":1,"cachedResults":0}');
  });

  it('into a FIFO, writing into it for its reader', async () => {
    const home = dir();
    const database = await databaseWithOne(home);
    const fifo = join(home, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const read = text(createReadStream(fifo));
    const run = await runCli(['export', '--database', database, '--out', fifo]);
    expect(run.status, run.stderr).toBe(0);
    expect(await read).toContain('"id":"only"');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });
});
