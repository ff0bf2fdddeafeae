/**
 * Per-request GraphQL context: the long-lived services plus one fresh result loader, so that every
 * path question of a request (aliases, batch lists, Position.paths, Analysis.results) shares one
 * DataLoader and identical questions are solved once per request. Results the engine solved for
 * this request are kept in `fresh` and handed to the cache writer by `persistFresh` once the
 * response is out; the server waits for the writer at shutdown. Each request also gets its own
 * engine-time budget (`budget.ts`), shared by the loader and the lazy fields, carries the
 * client's address for the mutation rate limit, and records whether its response may be kept in
 * the response cache (`src/http/response-cache.ts`): yes only when it served memoised path results
 * and touched nothing else with state.
 */
import type { Logger } from 'pino';
import type { Limits } from '../config.js';
import type { Metrics } from '../http/metrics.js';
import type { PathResult } from '../engine/types.js';
import type { Store } from '../store/types.js';
import type { EngineApi } from './engine.js';
import { EngineBudget } from './budget.js';
import { OutputBudget } from './output.js';
import type { CacheWriter } from './cache-writer.js';
import type { Prepared } from './engine.js';
import { createResultLoader, PreparationGate, type ResultLoader } from './loader.js';
import type { ResultMemo } from './memo.js';

/** Long-lived dependencies shared by all requests. */
export interface Services {
  engine: EngineApi;
  /** The store once it is open; undefined while opening, when disabled or when it failed. */
  store(): Store | undefined;
  limits: Limits;
  metrics: Metrics;
  logger: Logger;
  /** Hot results ready to serve. */
  memo: ResultMemo;
  /** Writes fresh results to the cache in the background, coalesced. */
  cacheWriter: CacheWriter;
}

/** What every resolver receives as its context. */
export interface Context {
  services: Services;
  loader: ResultLoader;
  /** Results solved (not found in the cache) during this request. */
  fresh: PathResult[];
  /** This request's engine-time account (ENGINE_BUDGET_MS). */
  budget: EngineBudget;
  /** This request's account of large output (MAX_RESPONSE_BYTES). */
  output: OutputBudget;
  /** Holds the loader's batch while a long list is prepared in slices. */
  preparing: PreparationGate;
  /** The client's IP address (the TCP peer), for the mutation rate limit. */
  clientAddress: string;
  /**
   * Whether the response may be replayed from the response cache: undefined until a resolver
   * says, true once a memoised path result was served, false for good once anything else was
   * (a result through the loader, analyses, a mutation, an error). An object, because Apollo
   * hands resolvers a shallow copy of the context.
   */
  replay: { allowed: boolean | undefined };
}

/** A context for one request from `clientAddress`. */
export function createContext(services: Services, clientAddress = 'unknown'): Context {
  const fresh: PathResult[] = [];
  const budget = new EngineBudget(services.limits.engineBudgetMs);
  const replay = { allowed: undefined };
  const output = new OutputBudget(services.limits.maxResponseBytes);
  const preparing = new PreparationGate();
  const loader = createResultLoader(services, fresh, budget, preparing);
  return { services, loader, fresh, budget, output, preparing, clientAddress, replay };
}

/** Marks the request's response as one never to replay (it depends on state). */
export function uncacheable(ctx: Context): void {
  ctx.replay.allowed = false;
}

/** The result of a prepared question: from the memo at once, else through the request's loader. */
export function resolveResult(ctx: Context, prepared: Prepared): PathResult | Promise<PathResult> {
  const hot = ctx.services.memo.get(prepared.key);
  if (hot) {
    ctx.services.metrics.memoHits.inc();
    ctx.replay.allowed ??= true;
    return hot;
  }
  ctx.replay.allowed = false;
  return ctx.loader.load(prepared);
}

/** Hands the request's freshly solved results to the cache writer (after the response). */
export function persistFresh(ctx: Context): void {
  if (ctx.fresh.length > 0) ctx.services.cacheWriter.enqueue(ctx.fresh.splice(0));
}
