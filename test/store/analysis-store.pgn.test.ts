/**
 * An analysis's game (its PGN text) on SQLite and PostgreSQL alike: stored exactly as given
 * (multi-byte text, CR LF line ends), read back by `get` and `list`, changed and cleared by
 * `update` (a new version each time), counted in the analysis's stored size, refused whole past
 * MAX_ANALYSIS_BYTES, and part of an idempotent save's input (the same key with another game is
 * refused).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ANALYSIS_ROW_OVERHEAD } from '../../src/store/analysis-budget.js';
import { IdempotencyKeyReusedError, type OpenedStore, StorageLimitError } from '../../src/store/index.js';
import { describeEachDatabase, useTestStores } from '../support/postgres.js';

const PGN = '[Event "Café €"]\r\n[White "Jöns"]\r\n\r\n1. e4 {♔ first} e5 2. Nf3 *\r\n';

describeEachDatabase('analyses with a game', (database) => {
  const stores = useTestStores(database);
  let store: OpenedStore;
  beforeEach(async () => {
    store = await stores.open();
  });

  it('stores the PGN as given and reads it back', async () => {
    const { analysis } = await store.analyses.save({ title: 'g', pgn: PGN, queries: [], resultKeys: [] });
    expect(analysis.pgn).toBe(PGN);
    expect((await store.analyses.get(analysis.id))?.pgn).toBe(PGN);
    const page = await store.analyses.list({ first: 5 });
    expect(page.edges[0].node.pgn).toBe(PGN);
    const without = await store.analyses.save({ title: 'none', queries: [], resultKeys: [] });
    expect((await store.analyses.get(without.analysis.id))?.pgn).toBeNull();
  });

  it('changes and clears the game by update, a new version each time', async () => {
    const { analysis, editToken } = await store.analyses.save({ title: 'g', pgn: PGN, queries: [], resultKeys: [] });
    const changed = await store.analyses.update(analysis.id, editToken, { pgn: '1. d4 *' });
    expect(changed).toMatchObject({ pgn: '1. d4 *', version: 2 });
    const cleared = await store.analyses.update(analysis.id, editToken, { pgn: null });
    expect(cleared).toMatchObject({ pgn: null, version: 3 });
    expect((await store.analyses.get(analysis.id))?.pgn).toBeNull();
  });

  it('counts the game in the stored size, and refuses one over MAX_ANALYSIS_BYTES whole', async () => {
    const before = await store.totals();
    await store.analyses.save({ title: 'g', pgn: PGN, queries: [], resultKeys: [] });
    const after = await store.totals();
    const expected =
      ANALYSIS_ROW_OVERHEAD + Buffer.byteLength('g') + Buffer.byteLength(PGN) + 2 * Buffer.byteLength('[]');
    expect(after.analysisBytes - before.analysisBytes).toBe(expected);
    await stores.close(store);
    store = await stores.open({ maxAnalysisBytes: 1000 });
    const large = `${'1. e4 e5 '.repeat(200)}*`;
    await expect(store.analyses.save({ title: 'big', pgn: large, queries: [], resultKeys: [] })).rejects.toBeInstanceOf(
      StorageLimitError,
    );
    expect((await store.totals()).analysisRows).toBe(after.analysisRows);
  });

  describe('with an idempotency key', () => {
    it('answers a retry with the same game, and refuses the key with another game', async () => {
      const input = { title: 'g', pgn: PGN, queries: [], resultKeys: [] };
      const first = await store.analyses.save(input, { idempotencyKey: 'game-key-1' });
      const again = await store.analyses.save(input, { idempotencyKey: 'game-key-1' });
      expect(again.analysis.id).toBe(first.analysis.id);
      expect(again.editToken).toBe(first.editToken);
      await expect(
        store.analyses.save({ ...input, pgn: '1. d4 *' }, { idempotencyKey: 'game-key-1' }),
      ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    });
  });
});
