/**
 * Random texts against the independent reference (test/support/reference-betza.ts): texts built
 * from the subset's grammar (and garbage from a wider alphabet) are refused by `readBetza` exactly
 * when the reference refuses them; when read, the moves of the rays (landing and needed squares,
 * computed here from the FairyRay definition, redundant ones dropped) are the reference's moves,
 * landings on random boards agree square by square, the canonical text reads back as the same
 * piece and the same text, and two texts get one canonical text exactly when their moves agree.
 * A refusal names a character that stands at the position it gives.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FairyRay, MAX_CANONICAL_BETZA_LENGTH, readBetza } from '../../src/betza/betza.js';
import { InputError } from '../../src/errors.js';
import { betzaText as betzaTextOf } from '../support/betza-texts.js';
import {
  referenceFairyMoveKeys,
  referenceFairyMovesFrom,
  referenceFairySolve,
  referenceParseBetza,
} from '../support/reference-betza.js';

/** One move of a ray, as the reference writes it: `x,y:` then its needed squares, sorted. */
interface KeyedMove {
  readonly landing: string;
  readonly needs: ReadonlySet<string>;
  readonly text: string;
}

const movesOfRay = new Map<string, KeyedMove[]>();

/** The moves of a ray from its definition: j*(dx, dy) needs i*(dx, dy) for i < j and each leap's lame squares. */
function rayMoves(ray: FairyRay): KeyedMove[] {
  const key = JSON.stringify(ray);
  const known = movesOfRay.get(key);
  if (known !== undefined) return known;
  const moves: KeyedMove[] = [];
  for (let j = 1; j <= ray.max; j++) {
    const needs = new Set<string>();
    for (let i = 1; i < j; i++) needs.add(`${i * ray.dx},${i * ray.dy}`);
    for (let i = 0; i < j; i++) for (const [px, py] of ray.lame) needs.add(`${i * ray.dx + px},${i * ray.dy + py}`);
    const landing = `${j * ray.dx},${j * ray.dy}`;
    moves.push({ landing, needs, text: `${landing}:${[...needs].sort().join(';')}` });
  }
  movesOfRay.set(key, moves);
  return moves;
}

/** The moves of a set of rays, redundant ones dropped, in the reference's format. */
function rayMoveKeys(rays: readonly FairyRay[]): string[] {
  const byLanding = new Map<string, KeyedMove[]>();
  for (const move of rays.flatMap(rayMoves))
    byLanding.set(move.landing, [...(byLanding.get(move.landing) ?? []), move]);
  const kept = new Set<string>();
  for (const moves of byLanding.values()) {
    for (const move of moves) {
      const redundant = moves.some(
        (other) => other.text !== move.text && [...other.needs].every((s) => move.needs.has(s)),
      );
      if (!redundant) kept.add(move.text);
    }
  }
  return [...kept].sort();
}

/** Two move lists are equal (compared as one string first: a rider has thousands of moves). */
function expectSameMoves(actual: readonly string[], expected: readonly string[], label: string): void {
  if (actual.join('\n') !== expected.join('\n')) expect(actual, label).toEqual(expected);
}

/** Reads with both readers: the engine's piece and the reference's moves, or null for a refusal. */
function readBoth(text: string) {
  let piece: ReturnType<typeof readBetza> | null = null;
  let refusal: InputError | null = null;
  try {
    piece = readBetza(text);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    refusal = error;
  }
  let reference: ReturnType<typeof referenceParseBetza> | null = null;
  try {
    reference = referenceParseBetza(text);
  } catch {
    reference = null;
  }
  return { piece, refusal, reference };
}

/** Texts of the subset's grammar (a few refused all the same: `frK`, `W` + `W3` = `WW3`, ...). */
const betzaText = betzaTextOf();

/** A random board up to 9 x 9 with about a fifth of its squares blocked. */
const board = fc
  .tuple(
    fc.integer({ min: 1, max: 9 }),
    fc.integer({ min: 1, max: 9 }),
    fc.infiniteStream(fc.integer({ min: 0, max: 4 })),
  )
  .map(([files, ranks, stream]) => ({
    files,
    ranks,
    passable: Array.from({ length: files * ranks }, () => stream.next().value !== 0),
  }));

/** Landings of the rays from square `from`, from the FairyRay definition. */
function rayLandings(
  rays: readonly FairyRay[],
  where: { files: number; ranks: number; passable: boolean[] },
  from: number,
): number[] {
  const fromFile = from % where.files;
  const fromRank = Math.floor(from / where.files);
  const open = ([x, y]: readonly [number, number]) => {
    const [f, r] = [fromFile + x, fromRank + y];
    return f >= 0 && f < where.files && r >= 0 && r < where.ranks && where.passable[r * where.files + f];
  };
  const out = new Set<number>();
  for (const ray of rays) {
    for (let j = 1; j <= ray.max && j * Math.max(Math.abs(ray.dx), Math.abs(ray.dy)) < 9; j++) {
      const needs: [number, number][] = [];
      for (let i = 1; i < j; i++) needs.push([i * ray.dx, i * ray.dy]);
      for (let i = 0; i < j; i++) for (const [px, py] of ray.lame) needs.push([i * ray.dx + px, i * ray.dy + py]);
      const landing: [number, number] = [j * ray.dx, j * ray.dy];
      if (open(landing) && needs.every(open)) out.add((fromRank + landing[1]) * where.files + fromFile + landing[0]);
    }
  }
  return [...out].sort((a, b) => a - b);
}

describe('readBetza against the reference on random texts', () => {
  it('refuses what the reference refuses, reads its moves, and writes a text that reads back the same', () => {
    let read = 0;
    fc.assert(
      fc.property(betzaText, (text) => {
        const { piece, reference } = readBoth(text);
        expect(piece === null, text).toBe(reference === null);
        if (piece === null || reference === null) return;
        read += 1;
        const moves = referenceFairyMoveKeys(reference);
        expectSameMoves(rayMoveKeys(piece.rays), moves, text);
        // The canonical text: the same moves by the reference's own reading, and a fixed point.
        expectSameMoves(referenceFairyMoveKeys(referenceParseBetza(piece.betza)), moves, `${text} -> ${piece.betza}`);
        expect(piece.betza.length, text).toBeLessThanOrEqual(MAX_CANONICAL_BETZA_LENGTH);
        const again = readBetza(piece.betza);
        expect(again.betza, text).toBe(piece.betza);
        expect(again.rays).toEqual(piece.rays);
        expect(again.orthodox).toBe(piece.orthodox);
      }),
      { numRuns: 2500 },
    );
    expect(read).toBeGreaterThan(1250);
  });

  it('lands where the reference lands, square by square, on random boards', () => {
    fc.assert(
      fc.property(betzaText, board, (text, where) => {
        const { piece, reference } = readBoth(text);
        if (piece === null || reference === null) return;
        const canonical = referenceParseBetza(piece.betza);
        for (let square = 0; square < where.files * where.ranks; square++) {
          if (!where.passable[square]) continue;
          const expected = referenceFairyMovesFrom(reference, where, square);
          expect(rayLandings(piece.rays, where, square), `${text} from ${square}`).toEqual(expected);
          expect(referenceFairyMovesFrom(canonical, where, square), `${piece.betza} from ${square}`).toEqual(expected);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('answers the same BFS for a text and its canonical text', () => {
    fc.assert(
      fc.property(betzaText, board, fc.nat(), fc.nat(), (text, where, from, to) => {
        const { piece } = readBoth(text);
        if (piece === null) return;
        const count = where.files * where.ranks;
        const question = { ...where, sources: [from % count], targets: [to % count] };
        const given = referenceFairySolve({ betza: text, ...question });
        const canonical = referenceFairySolve({ betza: piece.betza, ...question });
        expect(canonical.distances).toEqual(given.distances);
        expect(canonical.layers).toEqual(given.layers);
        expect(canonical.pathCount).toBe(given.pathCount);
        expect(canonical.path).toEqual(given.path);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses garbage exactly when the reference does, naming a character where it stands', () => {
    const garbage = fc
      .array(fc.constantFrom(...'fbrlvsnmcpgaxWFDNAHCZGKRBQXw0123[]( \u00e9'), { maxLength: 8 })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(garbage, (text) => {
        const { piece, refusal, reference } = readBoth(text);
        expect(piece === null, text).toBe(reference === null);
        if (refusal === null || text === '') return;
        const named = /^'(.+?)' at (\d+) /.exec(refusal.reason);
        expect(named, refusal.reason).not.toBeNull();
        const [, token, position] = named!;
        expect(
          Array.from(text)
            .slice(Number(position) - 1)
            .join('')
            .startsWith(token),
          `${text}: ${refusal.reason}`,
        ).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('one canonical text per set of moves', () => {
  /** Small texts over few atoms and counts, so that equal pieces written differently are common. */
  const smallTerm = fc
    .tuple(
      fc.constantFrom('', 'f', 'b', 'v', 's', 'r', 'fr', 'n', 'fn', 'l'),
      fc.constantFrom('W', 'F', 'D', 'K', 'R', 'A'),
      fc.constantFrom('', '1', '2', '3', '0', '255', 'twice'),
    )
    .map(([prefix, atom, end]) => prefix + atom + (end === 'twice' ? atom : end));
  const smallText = fc.array(smallTerm, { minLength: 1, maxLength: 3 }).map((terms) => terms.join(''));

  it('gives equal texts to equal move sets and different texts to different ones', () => {
    const texts = fc.sample(smallText, { numRuns: 4000, seed: 20261201 });
    const byMoves = new Map<string, Set<string>>();
    const byText = new Map<string, Set<string>>();
    for (const text of texts) {
      const { piece, reference } = readBoth(text);
      if (piece === null || reference === null) continue;
      const moves = referenceFairyMoveKeys(reference).join('|');
      byMoves.set(moves, (byMoves.get(moves) ?? new Set()).add(piece.betza));
      byText.set(piece.betza, (byText.get(piece.betza) ?? new Set()).add(moves));
    }
    const shared = [...byMoves.values()].filter((canonical) => canonical.size > 1);
    expect(shared).toEqual([]);
    expect([...byText.values()].filter((moves) => moves.size > 1)).toEqual([]);
    // Many move sets were written more than one way.
    expect(texts.length - byMoves.size).toBeGreaterThan(1000);
  });

  it('gives one text to terms in any order and to terms the others make redundant', () => {
    fc.assert(
      fc.property(fc.array(smallTerm, { minLength: 1, maxLength: 4 }), fc.nat(), (terms, seed) => {
        const shuffled = [...terms].sort((a, b) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7));
        for (const other of [shuffled.join(''), [...terms].reverse().join(''), `${terms.join('')}${terms[0]}`]) {
          const first = readBoth(terms.join(''));
          const second = readBoth(other);
          if (first.reference === null || second.reference === null) continue;
          const sameMoves =
            referenceFairyMoveKeys(first.reference).join('|') === referenceFairyMoveKeys(second.reference).join('|');
          expect(first.piece!.betza === second.piece!.betza, `${terms.join('')} / ${other}`).toBe(sameMoves);
        }
      }),
      { numRuns: 800 },
    );
  });
});
