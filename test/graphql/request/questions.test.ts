/**
 * Preparing questions: a Betza text never read before is read on an event-loop turn of its own,
 * one a turn (reading a text of many long rides takes tens of milliseconds in one piece, and
 * twenty requests arriving together must not read theirs back to back); texts already read are
 * prepared at once. Turns are observed with `nextTurn` itself, which hands them out in order, so
 * nothing here depends on the clock.
 */
import { isBetzaKept, type PathQuery, readBetza } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { PreparedQueries } from '../../../src/graphql/caching/prepared-queries.js';
import type { Context } from '../../../src/graphql/request/context.js';
import { prepareOnItsTurn, prepareQuestions } from '../../../src/graphql/request/questions.js';
import { defaultEngine, type Prepared } from '../../../src/graphql/work/engine-api.js';
import { EngineBudget } from '../../../src/graphql/work/engine-budget.js';
import { nextTurn } from '../../../src/graphql/work/turns.js';

/** A budget whose slice is never used up: on a loaded machine a question's few milliseconds could be. */
class UnslicedBudget extends EngineBudget {
  override get sliceUsed(): boolean {
    return false;
  }
}

/** The part of a request's context that preparing reads (slices aside: turns alone decide here). */
function contextOf(): Context {
  const services = { engine: defaultEngine, preparedQueries: new PreparedQueries(0), limits: loadConfig({}).limits };
  return { services, budget: new UnslicedBudget(0) } as unknown as Context;
}

let made = 0;
/** A fairy question whose text no test has read yet: a rider limited to a count of its own. */
function freshFairy(): PathQuery {
  made++;
  const betza = `fW${100 + made}bF${100 + made}N${10 + (made % 100)}`;
  expect(isBetzaKept(betza)).toBe(false);
  return { piece: 'FAIRY', betza, from: ['a1'], to: ['h8'] };
}

const keyOf = (p: Prepared | Error) => (p instanceof Error ? p.message : p.key);

describe('prepareQuestions and Betza texts', () => {
  it('reads a new text on a turn of its own, one a turn, and the rest of the list with it', async () => {
    const [first, second] = [freshFairy(), freshFairy()];
    const known: PathQuery = { piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] };
    readBetza('NN');
    const preparing = prepareQuestions(contextOf(), [first, known, second], ['queries'], false);
    // Not read in the turn the request arrived in.
    expect(preparing).toBeInstanceOf(Promise);
    expect(isBetzaKept(first.betza!)).toBe(false);
    // The next turn handed out reads the first text, and stops before the second.
    await nextTurn();
    expect(isBetzaKept(first.betza!)).toBe(true);
    expect(isBetzaKept(second.betza!)).toBe(false);
    const prepared = await preparing;
    expect(isBetzaKept(second.betza!)).toBe(true);
    expect(prepared.map(keyOf)).toEqual([first, known, second].map((q) => defaultEngine.prepareQuery(q).key));
  });

  it('prepares texts already read at once, in the turn the request arrived in', () => {
    const fairy = freshFairy();
    readBetza(fairy.betza!);
    const prepared = prepareQuestions(contextOf(), [fairy, { piece: 'KING', from: ['e4'], to: ['a1'] }], ['q'], false);
    expect(Array.isArray(prepared)).toBe(true);
  });

  it('prepareOnItsTurn: a new text after a turn, a known one or none at once', async () => {
    const fairy = freshFairy();
    const later = prepareOnItsTurn(contextOf(), fairy, ['query']);
    expect(later).toBeInstanceOf(Promise);
    expect(isBetzaKept(fairy.betza!)).toBe(false);
    expect((await later).key).toBe(defaultEngine.prepareQuery(fairy).key);
    expect(prepareOnItsTurn(contextOf(), fairy, ['query'])).not.toBeInstanceOf(Promise);
    expect(prepareOnItsTurn(contextOf(), { piece: 'KING', from: ['e4'], to: ['a1'] }, ['query'])).toHaveProperty('key');
  });
});
