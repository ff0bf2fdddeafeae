/**
 * The price of games and of stored data (src/graphql/limits/cost.ts): a game is priced by the
 * half-moves its reader will read, counted by the reader's own tokenizer, so no spelling the
 * reader accepts costs less than its plies (a property over random legal games in every style);
 * `route(first, last)` is one route whatever its move numbers; a page of stored analyses with their
 * results or games costs what armor prices a list at, its work counted at the upper bound.
 */
import { readGame } from '@chess-paths/engine';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { generator, randomGame, writePgn } from '../../../packages/engine/test/support/pgn-writer.js';
import { type Limits, loadConfig } from '../../../src/config.js';
import { HEAVY_WORK, operationCost } from '../../../src/graphql/limits/cost.js';
import { pliesIn } from '../../../src/graphql/limits/cost-inputs.js';
import { buildSchema } from '../../../src/graphql/schema/schema.js';
import { PLY_WEIGHT } from '../../../src/graphql/work/dispatch.js';

const schema = buildSchema();
const limits: Limits = loadConfig({}).limits;

function cost(query: string, variables?: Record<string, unknown>) {
  return operationCost({ schema, document: parse(query), variables, limits });
}

const PLIES = 'query($p: String!) { game(pgn: $p) { plies { san } } }';
const POSITIONS =
  'query($p: String!) { game(pgn: $p) { plies { position { paths(from: "e1", to: ["e8"]) { distance layers { squares } overlay { svg } } } } } }';

/** A legal game of `n` plies: knights out and back. */
function shuffle(n: number): string[] {
  const cycle = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
  return Array.from({ length: n }, (_, i) => cycle[i % 4]);
}

describe('a game is priced by the plies its reader reads', () => {
  it('counts moves written with no space between them exactly as moves written the usual way', () => {
    const moves = shuffle(1000);
    const usual = moves.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ${m}` : m)).join(' ');
    const compact = moves.map((m) => `${m}{}`).join('');
    expect(readGame(compact).plies).toHaveLength(1000);
    expect(pliesIn(compact, limits)).toBe(1000);
    expect(cost(PLIES, { p: compact }).cost).toBe(cost(PLIES, { p: usual }).cost);
    expect(cost(PLIES, { p: compact }).work).toBeGreaterThanOrEqual(1000 * PLY_WEIGHT);
    // Every ply's position with a picture: refused by MAX_COST however the moves are written.
    expect(cost(POSITIONS, { p: compact }).cost).toBeGreaterThan(limits.maxCost);
    expect(cost(POSITIONS, { p: usual }).cost).toBeGreaterThan(limits.maxCost);
  });

  it('counts each text once however many aliases read it, and each alias still pays', () => {
    const pgn = shuffle(40).join(' ');
    const one = cost(PLIES, { p: pgn });
    const two = cost('query($p: String!) { a: game(pgn: $p) { plies { san } } b: game(pgn: $p) { plies { san } } }', {
      p: pgn,
    });
    expect(two.cost).toBe(2 * one.cost);
    expect(two.work).toBe(2 * one.work);
  });

  it('never prices a legal game below its plies, variations included, in any spelling the reader accepts (200 random games)', () => {
    const random = generator(20_261_128);
    let compact = 0;
    for (let i = 0; i < 200; i++) {
      const game = randomGame(random);
      const pgn = writePgn(game, random);
      if (/[a-h][1-8]\{\}/.test(pgn)) compact++;
      // Every move read is played: the main line's and (one each, written `(12. Nf3`) its variations'.
      const plies = game.moves.length + (pgn.match(/\(\d+\.{1,3} /g) ?? []).length;
      const context = `game ${i}:\n${pgn}`;
      expect(pliesIn(pgn, limits), context).toBe(plies);
      const { work } = cost('query($p: String!) { game(pgn: $p) { result } }', { p: pgn });
      expect(work, context).toBeGreaterThanOrEqual(Math.max(plies, 1) * PLY_WEIGHT);
      // The plies list is priced at the game's plies: one leaf each below the list.
      expect(cost(PLIES, { p: pgn }).cost, context).toBe(2 + 1.5 * (2 + 1.5 * 1) * Math.max(plies, 1));
    }
    expect(compact).toBeGreaterThan(20);
  });

  it('prices a text the reader stops on at the moves before the refusal, and one over MAX_PLIES at MAX_PLIES', () => {
    expect(pliesIn('1. e4 e5 2. Nf3 ) Nc6', limits)).toBe(3);
    expect(pliesIn(shuffle(1500).join(' '), limits)).toBe(limits.maxPlies);
    expect(pliesIn(42, limits)).toBe(limits.maxPlies);
  });

  it('prices a save or update with a game as reading it, so it waits for admission like game(pgn:)', () => {
    const save = 'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken } }';
    const update =
      'mutation($i: UpdateAnalysisInput!) { updateAnalysis(id: "x", editToken: "t", input: $i) { version } }';
    const pgn = shuffle(200).join('{}');
    expect(cost(save, { i: { title: 't', queries: [] } }).work).toBeLessThanOrEqual(HEAVY_WORK);
    expect(cost(save, { i: { title: 't', queries: [], pgn } }).work).toBeGreaterThanOrEqual(200 * PLY_WEIGHT);
    expect(cost(update, { i: { pgn } }).work).toBeGreaterThanOrEqual(200 * PLY_WEIGHT);
    expect(cost(update, { i: { pgn: '  ' } }).work).toBeLessThanOrEqual(HEAVY_WORK); // a blank text clears the game
  });

  it('adds the reading of the text by its length: a text of tag pairs alone is heavy', () => {
    const tags = Array.from({ length: 6000 }, (_, i) => `[Tag${i} "a value of some length ${i}"]`).join('\n');
    expect(pliesIn(`${tags}\n*`, limits)).toBe(0);
    expect(cost('query($p: String!) { game(pgn: $p) { result } }', { p: `${tags}\n*` }).work).toBeGreaterThan(
      HEAVY_WORK,
    );
  });
});

describe('prices that match the work', () => {
  it("costs a journey's route as one route, whatever its move numbers", () => {
    const route = (first: number, last: number) =>
      cost(`query($p: String!) { game(pgn: $p) { journeys { route(first: ${first}, last: ${last}) { distance } } } }`, {
        p: shuffle(300).join(' '),
      });
    expect(route(150, 150)).toEqual(route(1, 1));
    expect(route(150, 150).cost).toBeLessThanOrEqual(limits.maxCost);
  });

  it('accepts the default page of analyses with their results, and a page of 10 with keys and distances', () => {
    const page = cost('{ analyses { edges { node { results { key } } } } }');
    expect(page.cost).toBeLessThanOrEqual(limits.maxCost);
    expect(page.work).toBeGreaterThan(HEAVY_WORK); // stored queries are unknown: it waits for admission
    expect(cost('{ analyses(first: 10) { edges { node { results { key distance } } } } }').cost).toBeLessThanOrEqual(
      limits.maxCost,
    );
  });

  it("prices a page of stored games' plies as lists of one, and their reading at MAX_PLIES in MAX_PGN_BYTES", () => {
    const page = cost('{ analyses { edges { node { game { result plies { san } } } } } }');
    expect(page.cost).toBeLessThanOrEqual(limits.maxCost);
    expect(page.work).toBeGreaterThanOrEqual(20 * limits.maxPlies * PLY_WEIGHT);
    expect(cost('{ analyses(first: 1) { edges { node { game { result } } } } }').work).toBeGreaterThan(HEAVY_WORK);
  });
});
