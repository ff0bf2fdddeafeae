/**
 * Saved analyses, through the store's `AnalysisStore`. Inputs are validated before anything is
 * written: text lengths, the FEN (parsed by the engine), and every query (prepared by the engine,
 * which also yields the result keys the store records; a saved query counts as asked once).
 * `Analysis.results` re-prepares the stored queries and loads them through the request's shared
 * loader, so they hit the same cache and batch as every other path question of the request, and
 * marks their keys so that their results are written on their first ask. A wrong edit token is the store's `ForbiddenError`
 * (FORBIDDEN), an unknown id its `NotFoundError` (NOT_FOUND); an update checks both before its
 * input, so a stranger's bad input is still FORBIDDEN. A save runs under the idempotency key
 * of its input or of the request's header (`request/idempotency.ts`), checked before anything else.
 */

import { formatInputPath, InputError, type InputPath, type PathQuery } from '@chess-paths/engine';
import type { AnalysisPatch, Store } from '../../../store/index.js';
import { servedOther } from '../../caching/replay.js';
import { checkBatch, checkFen, checkFirst, checkText } from '../../limits/limits.js';
import type { Context } from '../../request/context.js';
import { UnavailableError } from '../../request/errors.js';
import { readGameFor } from '../../request/games.js';
import { saveIdempotency } from '../../request/idempotency.js';
import { allPrepared, loadQuestions, plainQuery, prepareQuestions, rethrowUnder } from '../../request/questions.js';
import type { AnalysisResolvers, MutationResolvers, QueryResolvers } from '../generated/resolvers.js';

function requireStore(ctx: Context): Store {
  servedOther(ctx.replay); // analyses change: a response holding one is never replayed
  const store = ctx.services.store();
  if (!store) throw new UnavailableError('Analyses are unavailable: the database is not open (see /health)');
  return store;
}

function checkTitle(ctx: Context, title: string, path: InputPath): void {
  if (title.trim() === '') throw new InputError(path, title, 'is empty: an analysis needs a title');
  checkText(title, ctx.services.limits, path);
}

function checkAnalysisFen(ctx: Context, fen: string | null | undefined, path: InputPath): void {
  if (fen == null) return;
  checkFen(fen, ctx.services.limits, path);
  try {
    ctx.services.engine.parseFen(fen);
  } catch (err) {
    if (err instanceof InputError) throw new InputError(path, fen, `is not a valid FEN: ${err.message}`);
    throw err;
  }
}

/**
 * The game an analysis keeps: none for null or a blank text (a form's empty field, and what
 * earlier versions stored for it), else the text.
 */
function gameText(pgn: string | null | undefined): string | null {
  return pgn == null || pgn.trim() === '' ? null : pgn;
}

/** Reads a game to be saved (within MAX_PGN_BYTES, a legal game), its errors named under `path`. */
async function checkAnalysisPgn(ctx: Context, pgn: string | null, path: InputPath): Promise<void> {
  if (pgn === null) return;
  try {
    await readGameFor(ctx, pgn, [...path]);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    const error = new InputError(path, '', err.reason);
    error.message = `${formatInputPath(path)}: ${err.reason}`;
    throw error;
  }
}

/**
 * The queries as stored and their result keys; prepared in time slices (`prepareQuestions`). An
 * analysis is saved whole or not at all: one bad query fails the save.
 */
async function storedQueries(ctx: Context, queries: readonly PathQuery[], path: InputPath) {
  checkBatch(queries.length, ctx.services.limits, path);
  const plain = queries.map(plainQuery);
  const prepared = allPrepared(await prepareQuestions(ctx, plain, path));
  const resultKeys = prepared.map((p) => p.key);
  // A saved question counts as asked: its next ask writes its result (`caching/cache-policy.ts`).
  for (const key of resultKeys) ctx.services.cachePolicy.ask(key);
  return { queries: plain, resultKeys };
}

/** `Query.analysis` and `Query.analyses`. */
export const analysisQueries: Pick<QueryResolvers, 'analysis' | 'analyses'> = {
  analysis: (_root, { id }, ctx) => requireStore(ctx).analyses.get(id),
  analyses: async (_root, { first, after }, ctx) => {
    checkFirst(first, ctx.services.limits, ['first']);
    const page = await requireStore(ctx).analyses.list({ first: first ?? 20, after });
    return {
      edges: page.edges,
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
      totalCount: page.totalCount,
    };
  },
};

/** `saveAnalysis`, `updateAnalysis` and `deleteAnalysis`. */
export const analysisMutations: MutationResolvers = {
  saveAnalysis: async (_root, { input }, ctx, info) => {
    const { limits } = ctx.services;
    const idempotency = saveIdempotency(ctx, input.idempotencyKey, info);
    checkTitle(ctx, input.title, ['input', 'title']);
    checkText(input.notes, limits, ['input', 'notes']);
    checkAnalysisFen(ctx, input.fen, ['input', 'fen']);
    const pgn = gameText(input.pgn);
    await checkAnalysisPgn(ctx, pgn, ['input', 'pgn']);
    const { queries, resultKeys } = await storedQueries(ctx, input.queries, ['input', 'queries']);
    return requireStore(ctx).analyses.save(
      {
        title: input.title,
        notes: input.notes ?? null,
        fen: input.fen ?? null,
        pgn,
        queries,
        resultKeys,
      },
      idempotency,
    );
  },
  updateAnalysis: async (_root, { id, editToken, input, expectedVersion }, ctx) => {
    const { limits } = ctx.services;
    // A stranger (wrong token, unknown id) learns only that, before any work on the input.
    await requireStore(ctx).analyses.authorize(id, editToken);
    const patch: AnalysisPatch = {};
    if (input.title !== undefined) {
      if (input.title === null)
        throw new InputError(['input', 'title'], null, 'cannot clear the title: an analysis always has one');
      checkTitle(ctx, input.title, ['input', 'title']);
      patch.title = input.title;
    }
    if (input.notes !== undefined) {
      checkText(input.notes, limits, ['input', 'notes']);
      patch.notes = input.notes;
    }
    if (input.fen !== undefined) {
      checkAnalysisFen(ctx, input.fen, ['input', 'fen']);
      patch.fen = input.fen;
    }
    if (input.pgn !== undefined) {
      patch.pgn = gameText(input.pgn);
      await checkAnalysisPgn(ctx, patch.pgn, ['input', 'pgn']);
    }
    if (input.queries !== undefined) {
      if (input.queries === null)
        throw new InputError(['input', 'queries'], null, 'cannot be null: pass a list (possibly empty)');
      Object.assign(patch, await storedQueries(ctx, input.queries, ['input', 'queries']));
    }
    return requireStore(ctx).analyses.update(id, editToken, patch, expectedVersion ?? undefined);
  },
  deleteAnalysis: (_root, { id, editToken }, ctx) => requireStore(ctx).analyses.delete(id, editToken),
};

/** `Analysis.results`: the stored queries, loaded like any other path question; `Analysis.game`: its game. */
export const analysis: AnalysisResolvers = {
  game: (record, _args, ctx) => {
    const pgn = gameText(record.pgn);
    return pgn === null ? null : readGameFor(ctx, pgn, ['game']);
  },
  results: (record, _args, ctx) => {
    servedOther(ctx.replay);
    // Results a saved analysis refers to are written on their first ask.
    for (const key of record.resultKeys) ctx.pinned.add(key);
    try {
      return loadQuestions(ctx, record.queries, ['results'], false);
    } catch (err) {
      rethrowUnder(err, []);
    }
  },
};
