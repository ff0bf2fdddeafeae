/**
 * Sanity tests of the fairy reference (reference-betza.ts) itself, before it is trusted to judge
 * the engine's Betza module: its reading of the contract's examples, the squares a lame leap
 * passes over, landings on small boards worked out by hand (the Xiangqi horse and elephant, the
 * Janggi elephant, a nightrider, limited rides), an asymmetric piece's BFS both ways, and a
 * cross-check with reference-bfs.ts: the orthodox pieces written in Betza give the same answers
 * as the orthodox reference, on random boards.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  referenceFairyMoveKeys,
  referenceFairyMovesFrom,
  referenceFairySolve,
  referenceParseBetza,
  referencePassedOver,
} from './reference-betza.js';
import {
  type ReferencePiece,
  type ReferenceTerrain,
  referenceOpenBoard,
  referenceParseSquare,
  referenceSolve,
  referenceSquareName,
} from './reference-bfs.js';

const leaps = (text: string): string[] =>
  referenceParseBetza(text)
    .map(({ dx, dy, max, lame }) => `${lame ? 'n' : ''}${dx},${dy}${max === 1 ? '' : `x${max}`}`)
    .sort();

const terrain = (files: number, ranks: number, blocked: string[] = []): ReferenceTerrain => {
  const passable = referenceOpenBoard({ files, ranks });
  for (const name of blocked) passable[referenceParseSquare(name, { files, ranks })!] = false;
  return { files, ranks, passable };
};

const landings = (text: string, where: ReferenceTerrain, from: string): string[] =>
  referenceFairyMovesFrom(referenceParseBetza(text), where, referenceParseSquare(from, where)!)
    .map((square) => referenceSquareName(square, where))
    .sort();

describe('reference Betza reading', () => {
  it('reads atoms, shorthands and riders as the contract lists them', () => {
    expect(leaps('W')).toEqual(['-1,0', '0,-1', '0,1', '1,0']);
    expect(leaps('K')).toEqual([...leaps('W'), ...leaps('F')].sort());
    expect(leaps('R')).toEqual(leaps('WW'));
    expect(leaps('W0')).toEqual(leaps('WW'));
    expect(leaps('Q')).toEqual(leaps('WWFF'));
    expect(leaps('R4')).toEqual(leaps('W4'));
    expect(leaps('N1')).toEqual(leaps('N'));
    expect(leaps('WWW')).toEqual([...leaps('WW'), ...leaps('W')].sort());
    expect(leaps('fR')).toEqual(['0,1xInfinity']);
    expect(leaps('G')).toHaveLength(4);
    expect(leaps('Z')).toHaveLength(8);
  });

  it('reads direction letters two at a time when they form a group, else one', () => {
    expect(leaps('frrN')).toEqual(leaps('rN'));
    expect(leaps('ffrN')).toEqual(['-1,2', '1,-2', '1,2', '2,-1', '2,1']);
    expect(leaps('fnrN')).toEqual(leaps('nfrN'));
    expect(leaps('fbW')).toEqual(leaps('vW'));
    expect(leaps('frflN')).toEqual(['-1,2', '-2,1', '1,2', '2,1']);
    expect(leaps('lfN')).toEqual(['-1,-2', '-1,2', '-2,-1', '-2,1', '1,2', '2,1']);
    expect(leaps('rvN')).toEqual(['1,-2', '1,2']);
    expect(leaps('bsN')).toEqual(['-2,-1', '2,-1']);
  });

  it('drops c atoms, ignores m, and refuses what the subset does not have', () => {
    expect(leaps('mW')).toEqual(leaps('W'));
    expect(leaps('cWN')).toEqual(leaps('N'));
    for (const bad of [
      '',
      'cW',
      'mcW',
      'pN',
      'frK',
      'vK',
      'K2',
      'WW3',
      'WW0',
      'KK',
      'RR',
      'N01',
      'N257',
      'w',
      '[W]',
      'Wf',
      '3W',
      'X',
    ]) {
      expect(() => referenceParseBetza(bad), bad).toThrow();
    }
  });
});

describe('reference lame leaps and rides', () => {
  it('passes over the orthogonal steps along the longer leg, then the diagonal ones', () => {
    expect(referencePassedOver(2, 1)).toEqual([[1, 0]]);
    expect(referencePassedOver(-1, 2)).toEqual([[0, 1]]);
    expect(referencePassedOver(2, 2)).toEqual([[1, 1]]);
    expect(referencePassedOver(0, -2)).toEqual([[0, -1]]);
    expect(referencePassedOver(3, 2)).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect(referencePassedOver(1, -3)).toEqual([
      [0, -1],
      [0, -2],
    ]);
    expect(referencePassedOver(1, 0)).toEqual([]);
    expect(referencePassedOver(1, 1)).toEqual([]);
  });

  it('lands the Xiangqi horse unless the square beside it along the longer leg is blocked', () => {
    expect(landings('nN', terrain(5, 5), 'c3')).toEqual(landings('N', terrain(5, 5), 'c3'));
    expect(landings('nN', terrain(5, 5, ['c4']), 'c3')).toEqual(['a2', 'a4', 'b1', 'd1', 'e2', 'e4']);
    expect(landings('N', terrain(5, 5, ['c4']), 'c3')).toHaveLength(8);
    expect(landings('nA', terrain(5, 5, ['d4']), 'c3')).toEqual(['a1', 'a5', 'e1']);
    expect(landings('nZ', terrain(7, 7), 'd4')).toEqual(['a2', 'a6', 'b1', 'b7', 'f1', 'f7', 'g2', 'g6']);
    expect(landings('nZ', terrain(7, 7, ['e4']), 'd4')).toEqual(['a2', 'a6', 'b1', 'b7', 'f1', 'f7']);
    expect(landings('nZ', terrain(7, 7, ['f5']), 'd4')).toEqual(['a2', 'a6', 'b1', 'b7', 'f1', 'f7', 'g2']);
  });

  it('rides leap by leap and stops before the first blocked or off-board landing', () => {
    expect(landings('NN', terrain(8, 8), 'a1')).toEqual(['b3', 'c2', 'c5', 'd7', 'e3', 'g4']);
    expect(landings('NN', terrain(8, 8, ['b3']), 'a1')).toEqual(['c2', 'e3', 'g4']);
    expect(landings('NN', terrain(8, 8, ['a2', 'b2', 'c3', 'c4']), 'a1')).toEqual(['b3', 'c2', 'c5', 'd7', 'e3', 'g4']);
    expect(landings('nNN', terrain(8, 8, ['b4']), 'a1')).toEqual(['b3', 'c2', 'e3', 'g4']);
    expect(landings('W3', terrain(8, 8, ['c1']), 'a1')).toEqual(['a2', 'a3', 'a4', 'b1']);
    expect(landings('fWW', terrain(1, 4), 'a2')).toEqual(['a3', 'a4']);
    expect(landings('nDD', terrain(1, 8, ['a4']), 'a1')).toEqual(['a3']);
  });

  it('lists moves with the squares they need, redundant ones dropped', () => {
    expect(referenceFairyMoveKeys(referenceParseBetza('fW2'))).toEqual(['0,1:', '0,2:0,1']);
    expect(referenceFairyMoveKeys(referenceParseBetza('fW2fD'))).toEqual(['0,1:', '0,2:']);
    expect(referenceFairyMoveKeys(referenceParseBetza('fnD'))).toEqual(['0,2:0,1']);
    expect(referenceFairyMoveKeys(referenceParseBetza('frnN'))).toEqual(['1,2:0,1', '2,1:1,0']);
    expect(referenceFairyMoveKeys(referenceParseBetza('NN')).length).toBe(8 * 127);
    expect(referenceFairyMoveKeys(referenceParseBetza('N127'))).toEqual(
      referenceFairyMoveKeys(referenceParseBetza('NN')),
    );
  });
});

describe('reference fairy BFS', () => {
  it('searches an asymmetric piece forward and backward on its own moves', () => {
    const open = terrain(1, 4);
    const up = referenceFairySolve({ betza: 'fW', ...open, sources: [0], targets: [3] });
    expect(up.distance).toBe(3);
    expect(up.path).toEqual([0, 1, 2, 3]);
    expect(up.pathCount).toBe(1n);
    expect(referenceFairySolve({ betza: 'fW', ...open, sources: [3], targets: [0] }).reachable).toBe(false);
    const rider = referenceFairySolve({ betza: 'fWbW', ...open, sources: [0], targets: [3] });
    expect(rider.distance).toBe(3);
  });

  it('counts the paths of a wazir-dabbaba across 1 x 5', () => {
    const answer = referenceFairySolve({ betza: 'WD', ...terrain(5, 1), sources: [0], targets: [4] });
    expect(answer.distance).toBe(2);
    expect(answer.layers).toEqual([[0], [2], [4]]);
    expect(answer.pathCount).toBe(1n);
    const three = referenceFairySolve({ betza: 'WD', ...terrain(5, 1), sources: [0], targets: [3] });
    expect(three.layers).toEqual([[0], [1, 2], [3]]);
    expect(three.pathCount).toBe(2n);
    expect(three.firstPaths(5)).toEqual([
      [0, 1, 3],
      [0, 2, 3],
    ]);
  });

  it('agrees with the orthodox reference for K, Q, R, B and N on random boards', () => {
    const pieces: [string, ReferencePiece][] = [
      ['K', 'KING'],
      ['Q', 'QUEEN'],
      ['R', 'ROOK'],
      ['B', 'BISHOP'],
      ['N', 'KNIGHT'],
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 4 }),
        fc.infiniteStream(fc.boolean()),
        fc.nat(),
        fc.nat(),
        (files, ranks, which, bits, from, to) => {
          const count = files * ranks;
          const passable = Array.from({ length: count }, () => bits.next().value || bits.next().value);
          const problem = { files, ranks, passable, sources: [from % count], targets: [to % count] };
          const [betza, piece] = pieces[which];
          const fairy = referenceFairySolve({ betza, ...problem });
          const orthodox = referenceSolve({ piece, ...problem });
          expect(fairy.distances).toEqual(orthodox.distances);
          expect(fairy.layers).toEqual(orthodox.layers);
          expect(fairy.pathCount).toBe(orthodox.pathCount);
          expect(fairy.path).toEqual(orthodox.path);
          expect(fairy.firstPaths(3)).toEqual(orthodox.firstPaths(3));
        },
      ),
      { numRuns: 300 },
    );
  });
});
