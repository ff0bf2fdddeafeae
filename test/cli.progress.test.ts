/**
 * The progress line of `chess-paths`: drawn on standard error only when it is a terminal, only
 * after a second of work, at most every 100 ms, never sharing a line with the output, and erased
 * at the end. Time is a fake clock, so nothing here waits; the commands run in-process through
 * `run` with a fake terminal on standard error (an `Output` with `status`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { solve } from '@chess-paths/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { KASPAROV_TOPALOV } from '../packages/engine/test/support/famous-games.js';
import { run } from '../src/cli/main.js';
import { CLEAR_LINE, DELAY_MS, INTERVAL_MS, Progress } from '../src/cli/progress.js';
import { listPaths } from '../src/cli/solve-output.js';
import type { Output } from '../src/cli/terminal.js';

/** A clock that moves `step` ms each time it is read. */
function fakeClock(step: number): () => number {
  let time = 0;
  return () => {
    time += step;
    return time;
  };
}

describe('Progress', () => {
  it('draws nothing for the first second, then at most every interval, and erases its line', () => {
    let time = 0;
    const written: string[] = [];
    const progress = new Progress(
      (text) => written.push(text),
      45,
      () => time,
    );
    time = DELAY_MS - 1;
    progress.update('listing paths', 1, 10);
    expect(written).toEqual([]);
    time = DELAY_MS;
    progress.update('listing paths', 2, 10);
    expect(written).toEqual([`${CLEAR_LINE}chess-paths: listing paths 2 of 10 (1 s)`]);
    time += INTERVAL_MS - 1;
    progress.update('listing paths', 3, 10);
    expect(written).toHaveLength(1);
    time += 1;
    progress.update('drawing boards, row', 4, 1000);
    // Cut to the terminal's width less one, so the line never wraps (a carriage return could not erase it).
    expect(written[1]).toBe(`${CLEAR_LINE}${'chess-paths: drawing boards, row 4 of 1000 (1 s)'.slice(0, 44)}`);
    progress.clear();
    progress.clear();
    expect(written.slice(2)).toEqual([CLEAR_LINE]);
  });

  it('begin shows a long call at once, before the first second', () => {
    let time = 0;
    const written: string[] = [];
    const progress = new Progress(
      (text) => written.push(text),
      80,
      () => time,
    );
    time = 10;
    progress.begin('drawing the PNG (1200 pixels wide)');
    expect(written).toEqual([`${CLEAR_LINE}chess-paths: drawing the PNG (1200 pixels wide)`]);
    progress.clear();
    expect(written.at(-1)).toBe(CLEAR_LINE);
  });

  it('does nothing without a terminal', () => {
    const progress = new Progress(undefined, 80, fakeClock(10_000));
    progress.update('solving');
    progress.clear();
  });
});

/**
 * An `Output` recording what goes where, in order; `terminal` gives it a terminal on stderr, and
 * `screen` one on stdout too.
 */
function recorder(terminal: boolean, clockStep: number, screen = false) {
  const events: { to: 'out' | 'err' | 'status'; text: string }[] = [];
  const io: Output = {
    out: (text) => void events.push({ to: 'out', text }),
    err: (text) => void events.push({ to: 'err', text }),
    now: fakeClock(clockStep),
    ...(screen ? { screen: { columns: 100, rows: 50 } } : {}),
    ...(terminal
      ? { status: { write: (text: string) => void events.push({ to: 'status', text }), columns: 100 } }
      : {}),
  };
  return { io, events };
}

/** True when no output was written while a progress line was on the terminal. */
function neverShared(events: { to: string; text: string }[]): boolean {
  let shown = false;
  for (const event of events) {
    if (event.to === 'status') shown = event.text !== CLEAR_LINE;
    else if (shown) return false;
  }
  return !shown;
}

// 64 rows of boards of a 64 x 64 board (each wider than 100 columns): 64 reports of drawing.
const LARGE = ['solve', '--piece', 'king', '--board', '64x64', '--from', 'a1', '--to', 'bl64', '--picture'];

describe('chess-paths with a terminal on standard error', () => {
  let dir: string | undefined;
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('solve: the line says what is being done, and is erased before each piece of output on the same terminal', async () => {
    const { io, events } = recorder(true, 50, true);
    expect(await run(LARGE, io)).toBe(0);
    const status = events.filter((e) => e.to === 'status').map((e) => e.text);
    const drawn = status.filter((text) => text !== CLEAR_LINE);
    expect(drawn.length).toBeGreaterThan(0);
    for (const text of drawn) {
      expect(text.startsWith(CLEAR_LINE)).toBe(true);
      expect(text.slice(CLEAR_LINE.length)).toMatch(/^chess-paths: drawing boards, row \d+ of 64 \(\d+ s\)$/);
    }
    expect(neverShared(events)).toBe(true);
    expect(events.filter((e) => e.to === 'err')).toEqual([]);
  });

  it('solve to a file: the line stays up while the output is written, and is erased at the end', async () => {
    const { io, events } = recorder(true, 50);
    expect(await run(LARGE, io)).toBe(0);
    const drawnAt = events.findIndex((e) => e.to === 'status');
    expect(events[drawnAt].text).toMatch(/drawing boards, row \d+ of 64/);
    // Output went out while the line was up (it is not on the same terminal), and the line went at the end.
    expect(events.slice(drawnAt).some((e) => e.to === 'out')).toBe(true);
    expect(events.at(-1)).toEqual({ to: 'status', text: CLEAR_LINE });
  });

  it('solve --paths: the listing reports how far it is', async () => {
    const { io, events } = recorder(true, 200, true);
    const args = ['solve', '--piece', 'king', '--board', '64x64', '--from', 'a1', '--to', 'bl1', '--paths', '1000'];
    expect(await run([...args, '--no-picture'], io)).toBe(0);
    const status = events.filter((e) => e.to === 'status').map((e) => e.text);
    expect(status.some((text) => /listing paths \d+ of 1000 \(\d+ s\)$/.test(text))).toBe(true);
    expect(neverShared(events)).toBe(true);
  });

  it('game: the maneuvers are compared piece by piece', async () => {
    dir = mkdtempSync(join(tmpdir(), 'chess-paths-progress-'));
    const file = join(dir, 'game.pgn');
    writeFileSync(file, KASPAROV_TOPALOV);
    const { io, events } = recorder(true, 300, true);
    expect(await run(['game', file], io)).toBe(0);
    const status = events.filter((e) => e.to === 'status').map((e) => e.text);
    expect(status.some((text) => /comparing maneuvers, piece \d+ of 32/.test(text))).toBe(true);
    expect(neverShared(events)).toBe(true);
  });

  it('an error ends the line before its message', async () => {
    const { io, events } = recorder(true, 200);
    const args = ['solve', '--piece', 'king', '--board', '64x64', '--from', 'a1', '--to', 'bl64', '--paths', '500'];
    expect(await run([...args, '--svg', '/nonexistent-dir/x.svg'], io)).toBe(1);
    expect(events.at(-1)).toEqual({ to: 'err', text: expect.stringContaining('--svg: "/nonexistent-dir/x.svg"') });
    expect(neverShared(events)).toBe(true);
  });
});

describe('listing paths a chunk at a time (so the line can move)', () => {
  it('gives the same page as one call, from the start and after a cursor', () => {
    const result = solve({ piece: 'KING', board: { files: 16, ranks: 16 }, from: ['a1'], to: ['p1'] });
    const progress = new Progress(undefined);
    for (const first of [0, 1, 49, 50, 51, 120]) {
      expect(listPaths(result, first, undefined, progress)).toEqual(result.paths({ first }));
    }
    const after = result.paths({ first: 7 }).pageInfo.endCursor!;
    expect(listPaths(result, 133, after, progress)).toEqual(result.paths({ first: 133, after }));
    // Past the last path: the page ends, hasNextPage false.
    const few = solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });
    expect(listPaths(few, 100, undefined, progress)).toEqual(few.paths({ first: 100 }));
  });
});

describe('chess-paths without a terminal on standard error', () => {
  it('writes no progress, however long the work', async () => {
    const { io, events } = recorder(false, 10_000);
    expect(await run([...LARGE, '--paths', '100'], io)).toBe(0);
    expect(events.every((e) => e.to === 'out')).toBe(true);
  });
});
