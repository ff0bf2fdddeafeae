/**
 * The games read from PGN (`src/graphql/caching/game-cache.ts`): kept within their bound in
 * estimated bytes, the least recently used leaving first, none over an eighth of the bound; a
 * reading in flight shared by the requests that ask for the same text; a text that fails as input
 * kept failing, any other failure dropped.
 */
import { type Game, InputError } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { GameCache } from '../../../src/graphql/caching/game-cache.js';
import { estimateBytes } from '../../../src/graphql/caching/sizes.js';

/** A game whose one tag holds `chars` characters (what it weighs grows with them). */
function game(id: string, chars = 100): Game {
  return {
    tags: [{ name: id, value: 'x'.repeat(chars) }],
    startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    plies: [],
    result: '*',
    journeys: [],
  } as unknown as Game;
}

/** A reading that answers `value`, counting its calls. */
function reader(value: Game | Error) {
  let calls = 0;
  return {
    read: async (): Promise<Game> => {
      calls++;
      if (value instanceof Error) throw value;
      return value;
    },
    calls: () => calls,
  };
}

describe('GameCache', () => {
  it('keeps games within its bound in bytes, the least recently used leaving first', async () => {
    const weight = estimateBytes(game('g0'));
    const games = new GameCache(8 * weight);
    for (let i = 0; i < 8; i++) await games.get(`k${i}`, reader(game(`g${i}`)).read);
    expect(games.size()).toEqual({ entries: 8, bytes: 8 * weight, maxBytes: 8 * weight });
    await games.get('k0', reader(game('other')).read); // k0 is now the most recently used
    await games.get('k8', reader(game('g8')).read);
    const k0 = reader(game('again'));
    const k1 = reader(game('again'));
    expect((await games.get('k0', k0.read)).tags[0].name).toBe('g0');
    expect((await games.get('k1', k1.read)).tags[0].name).toBe('again');
    expect([k0.calls(), k1.calls()]).toEqual([0, 1]);
    expect(games.size().bytes).toBeLessThanOrEqual(8 * weight);
  });

  it('answers a game over an eighth of its bound without keeping it', async () => {
    const games = new GameCache(8 * estimateBytes(game('small')));
    const huge = game('huge', 1000);
    const first = reader(huge);
    expect(await games.get('huge', first.read)).toBe(huge);
    expect(games.size().entries).toBe(0);
    await games.get('huge', first.read);
    expect(first.calls()).toBe(2);
  });

  it('shares a reading in flight, keeps a text that fails as input, drops other failures', async () => {
    const games = new GameCache();
    let finish: (g: Game) => void = () => {};
    let calls = 0;
    const slow = () => {
      calls++;
      return new Promise<Game>((resolve) => {
        finish = resolve;
      });
    };
    const a = games.get('same', slow);
    const b = games.get('same', slow);
    finish(game('same'));
    expect(await a).toBe(await b);
    expect(calls).toBe(1);

    const bad = reader(new InputError(['pgn'], '1. e9', 'is not a game'));
    await expect(games.get('bad', bad.read)).rejects.toThrow(InputError);
    await expect(games.get('bad', bad.read)).rejects.toThrow(InputError);
    expect(bad.calls()).toBe(1);

    const cancelled = reader(new Error('budget spent'));
    await expect(games.get('cut', cancelled.read)).rejects.toThrow('budget spent');
    const later = reader(game('cut'));
    expect((await games.get('cut', later.read)).tags[0].name).toBe('cut');
    expect(later.calls()).toBe(1);
  });

  it('keeps nothing with a bound of 0, yet shares a reading in flight', async () => {
    const games = new GameCache(0);
    const one = reader(game('g'));
    await Promise.all([games.get('k', one.read), games.get('k', one.read)]);
    await games.get('k', one.read);
    expect(one.calls()).toBe(2);
    expect(games.size()).toEqual({ entries: 0, bytes: 0, maxBytes: 0 });
  });
});
