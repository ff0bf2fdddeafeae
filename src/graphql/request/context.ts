/**
 * Per-request GraphQL context: the long-lived services plus what belongs to one request: its
 * engine budget (`work/engine-budget.ts`), shared by every piece of its engine work wherever it runs; its
 * work dispatcher (main thread or worker pool, `work/dispatch.ts`); one result loader, so that
 * every path question of the request (aliases, batch lists, Position.paths, Analysis.results)
 * shares one DataLoader and identical questions are solved once; one loader of lazy fields for
 * the pool; its account of answer bytes (`limits/response-budget.ts`); the results it solved, handed to the cache
 * writer once the response is out (`persistFresh`); the client's address for the mutation rate
 * limit; whether its response may be replayed from the response cache; and what makes its saves
 * idempotent (the `Idempotency-Key` header, the operation's place in a batch: `idempotency.ts`).
 */
import type { PathResult } from '@chess-paths/engine';
import { ErrorCode, ServiceError } from '../../errors.js';
import { newVerdict, type ReplayVerdict, servedHot, servedOther } from '../caching/replay.js';
import { OutputBudget } from '../limits/response-budget.js';
import { WorkDispatcher } from '../work/dispatch.js';
import type { Prepared } from '../work/engine-api.js';
import { EngineBudget } from '../work/engine-budget.js';
import { createFieldLoader, type FieldLoader } from '../work/fields.js';
import { createResultLoader, PreparationGate, type ResultLoader } from './loader.js';
import type { PositionDiagrams } from './position-diagrams.js';
import type { Services } from './services.js';

/** What every resolver receives as its context. */
export interface Context {
  services: Services;
  loader: ResultLoader;
  /** Lazy fields computed on the worker pool, batched per tick. */
  fields: FieldLoader;
  /** Where this request's engine work runs. */
  work: WorkDispatcher;
  /** Results solved (not found in the cache) during this request, to be written. */
  fresh: PathResult[];
  /** Keys a saved analysis of this request refers to: written on their first ask (`caching/cache-policy.ts`). */
  pinned: Set<string>;
  /** This request's engine-time account (ENGINE_BUDGET_MS). */
  budget: EngineBudget;
  /** This request's account of large output (MAX_RESPONSE_BYTES). */
  output: OutputBudget;
  /** Holds the loader's batch back while a long list is prepared in slices. */
  preparing: PreparationGate;
  /** The client's IP address (the TCP peer), for the mutation rate limit. */
  clientAddress: string;
  /** Whether the response may be replayed from the response cache (`caching/replay.ts`). */
  replay: ReplayVerdict;
  /**
   * The HTTP request this operation belongs to. Apollo hands each operation of a batch a shallow
   * copy of the context, so what the operations of one request share sits in objects: this one,
   * the budgets, the loader and the replay verdict.
   */
  request: RequestScope;
  /** Positions of the `Position.paths` answers, for their pictures (`position-diagrams.ts`). */
  positionDiagrams: PositionDiagrams;
  /** This operation's place in a batched request (0 outside one), for idempotency keys. */
  operationIndex: number;
}

/** What belongs to the HTTP request rather than to one of its operations. */
export interface RequestScope {
  /** The request's wait for a place at admission (heavy work), which its operations share. */
  admitted?: Promise<void>;
  /** Gives back the request's place at admission, once it took one. */
  release?: () => void;
  /** The request's `Idempotency-Key` header, as sent. */
  idempotencyKey?: string;
  /** The operations of a batched request (its JSON array body), which each operation's place is found in. */
  batch?: readonly unknown[];
}

/** A context for one request from `clientAddress`. */
export function createContext(services: Services, clientAddress = 'unknown'): Context {
  const fresh: PathResult[] = [];
  const pinned = new Set<string>();
  const budget = new EngineBudget(services.limits.engineBudgetMs);
  services.inFlight.add(budget);
  const work = new WorkDispatcher(services.pool, budget);
  const preparing = new PreparationGate();
  const loader = createResultLoader({ services, budget, work, fresh, pinned, gate: preparing });
  return {
    services,
    loader,
    fields: createFieldLoader(work),
    work,
    fresh,
    pinned,
    budget,
    output: new OutputBudget(services.limits.maxResponseBytes),
    preparing,
    clientAddress,
    replay: newVerdict(),
    request: {},
    positionDiagrams: new WeakMap(),
    operationIndex: 0,
  };
}

/** The result of a prepared question: from the hot results at once, else through the request's loader. */
export function resolveResult(ctx: Context, prepared: Prepared): PathResult | Promise<PathResult> {
  const hot = ctx.services.hot.get(prepared.key);
  if (hot) {
    ctx.services.metrics.memoHits.inc();
    servedHot(ctx.replay);
    return hot;
  }
  servedOther(ctx.replay);
  return ctx.loader.load(prepared);
}

/**
 * Why the work of a request that is over is cancelled. It reaches no client, but the fields it
 * fails are still formatted: a code of its own keeps a client that went away from counting (and
 * being logged) as an internal error.
 */
export class RequestOverError extends ServiceError {
  override readonly name = 'RequestOverError';
  readonly code = ErrorCode.RequestCancelled;
}

/** One instance for every request: it carries nothing of any. */
const REQUEST_OVER = new RequestOverError('the request is over: its answer was sent or its client went away');

/** The request is over (answered, or its client gone): its remaining work is cancelled. */
export function endRequest(ctx: Context): void {
  releasePlace(ctx);
  ctx.budget.cancel(REQUEST_OVER);
  ctx.services.inFlight.delete(ctx.budget);
}

/**
 * Gives back the request's place at admission, if it holds one: once its answer is made (the
 * work is done; writing it out must not hold the place, or a client that never reads would keep
 * every other heavy request waiting), or when the request ends first.
 */
export function releasePlace(ctx: Context): void {
  const release = ctx.request.release;
  ctx.request.release = undefined;
  release?.();
}

/** Hands the request's freshly solved results to the cache writer (after the response). */
export function persistFresh(ctx: Context): void {
  if (ctx.fresh.length > 0) ctx.services.cacheWriter.enqueue(ctx.fresh.splice(0));
}
