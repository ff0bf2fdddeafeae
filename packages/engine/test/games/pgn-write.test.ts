/**
 * Writing a game back as PGN (src/games/pgn-write.ts): 200 random games written in every style, read,
 * written back and read again give the same game (moves, positions, comments, NAGs, variations,
 * tags, result); a comment holding `}` survives as a `;` comment; the annotated PGN adds each
 * maneuver that took a longer way as a comment with the convention's arrows, after the
 * author's, and reads back to the same moves, through this reader and through pgn-extract (the
 * Debian package; skipped with a message when it is missing outside CI).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGame } from '../../src/games/game.js';
import { writePgn } from '../../src/games/pgn-write.js';
import { KARPOV_UNZICKER, OPERA_GAME, SAAVEDRA } from '../support/famous-games.js';
import { generator, randomGame, writePgn as writeStyled } from '../support/pgn-writer.js';

const PGN_EXTRACT = '/usr/games/pgn-extract';

describe('writing a game back', () => {
  it('reads back to the same game, for 200 random games written in every style', () => {
    const random = generator(20_261_129);
    for (let i = 0; i < 200; i++) {
      const text = writeStyled(randomGame(random), random);
      const game = readGame(text);
      const written = writePgn(game);
      expect(readGame(written), `game ${i}:\n${text}\n---\n${written}`).toEqual(game);
      // Lines of at most 80 characters, unless one token (a long comment) is longer on its own.
      for (const line of written.split('\n')) if (line.length > 80) expect(line, written).toMatch(/^[{;(]/);
    }
  });

  it("keeps the author's comments, NAGs and nested variations, a comment with } as a ; comment", () => {
    const text =
      '[White "A \\"quoted\\" name"]\n{Before the game} 1. e4 $1 {after e4} (1. d4 {a comment} d5 (1... Nf6 $5) 2. c4) 1... e5 2. Nf3 {the end} *';
    const game = readGame(text);
    const written = writePgn(game);
    expect(written).toBe(
      '[White "A \\"quoted\\" name"]\n\n1. {Before the game} e4 $1 {after e4} (1. d4 {a comment} 1... d5 (1... Nf6 $5)\n2. c4) 1... e5 2. Nf3 {the end} *\n',
    );
    expect(readGame(written)).toEqual(game);
    // A comment before a later move stays before it.
    const before = readGame('1. e4 e5 2. {the knight now} Nf3 Nc6 3. Bb5 {the bishop} 3... {and now} a6 *');
    expect(writePgn(before)).toBe('1. e4 e5 2. {the knight now} Nf3 Nc6 3. Bb5 {the bishop} 3... {and now} a6 *\n');
    expect(readGame(writePgn(before))).toEqual(before);
    const brace = readGame('1. e4 ; a } in a line comment\n1... e5 *');
    expect(writePgn(brace)).toBe('1. e4 ;a } in a line comment\n1... e5 *\n');
    expect(readGame(writePgn(brace))).toEqual(brace);
  });
});

describe('the annotated PGN', () => {
  it("adds a longer way's maneuver as a comment with arrows after its last move, and reads back to the same moves", () => {
    const game = readGame(SAAVEDRA);
    const annotated = writePgn(game, { annotate: true });
    const again = readGame(annotated);
    expect(again.plies.map((p) => p.fen)).toEqual(game.plies.map((p) => p.fen));
    const rookLast = again.plies.find((p) => p.number === 12);
    expect(rookLast?.san).toBe('Ra4');
    expect(rookLast?.comments).toEqual([
      'd5-d6-d5-d4-d3-d4-a4: 6 moves where 5 stayed open (d5-d1-b1-b2-a2-a4) [%csl Yd5,Ya4][%cal Rd5d6,Rd6d5,Rd5d4,Rd4d3,Rd3d4,Rd4a4,Gd5d1,Gd1b1,Gb1b2,Gb2a2,Ga2a4]',
    ]);
    // A game with no such maneuver is written as it is.
    const opera = readGame(OPERA_GAME);
    expect(writePgn(opera, { annotate: true })).toBe(writePgn(opera));
  });

  it.skipIf(!existsSync(PGN_EXTRACT) && !process.env.CI)('reads back through pgn-extract to the same moves', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgn-write-'));
    try {
      for (const source of [SAAVEDRA, KARPOV_UNZICKER, OPERA_GAME]) {
        const game = readGame(source);
        const file = join(dir, 'annotated.pgn');
        writeFileSync(file, writePgn(game, { annotate: true }));
        const out = spawnSync(PGN_EXTRACT, ['-s', '-Wuci', '-C', '-N', '-V', file], { encoding: 'utf8' });
        expect(out.status).toBe(0);
        const movetext = out.stdout.split('\n\n')[1] ?? '';
        const moves = movetext.trim().split(/\s+/).slice(0, -1); // the result last
        // pgn-extract writes a promotion's piece in capitals (c7c8R).
        expect(moves.map((m) => m.toLowerCase())).toEqual(game.plies.map((p) => p.uci));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
