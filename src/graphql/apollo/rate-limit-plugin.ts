/**
 * Rate limiting of mutations per client address (RATE_LIMIT_MUTATIONS per RATE_LIMIT_WINDOW_MS),
 * as an Apollo plugin that looks at the operation once it is resolved: queries are never limited,
 * and a mutation costs one unit per root field, so aliasing thirty `saveAnalysis` into one request
 * costs thirty. Over the limit the whole operation is refused before anything runs, with HTTP 429,
 * a `Retry-After` header and a GraphQL error whose `extensions.code` is `RATE_LIMITED`.
 *
 * The address is the TCP peer, or behind proxies of your own the address they forwarded
 * (TRUST_PROXY_HOPS, `src/http/client-address.ts`); RATE_LIMIT_MUTATIONS=0 turns the limit off
 * (and opens no connection).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { type FragmentDefinitionNode, Kind, type SelectionSetNode } from 'graphql';
import { ErrorCode, ServiceError } from '../../errors.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Context } from '../request/context.js';
import { refusal } from '../request/errors.js';

/** Too many mutations from one client in the window. */
export class RateLimitedError extends ServiceError {
  override readonly name = 'RateLimitedError';
  readonly code = ErrorCode.RateLimited;
  constructor(
    /** Mutations allowed per window. */
    readonly max: number,
    windowMs: number,
    /** What this request needs. */
    units: number,
    /** Seconds until it would be allowed. */
    readonly retryAfterSeconds: number,
  ) {
    super(
      `Too many mutations from this address: the limit is ${max} per ${windowMs / 1000} s ` +
        `(RATE_LIMIT_MUTATIONS, RATE_LIMIT_WINDOW_MS) and this request needs ${units}; try again in ${retryAfterSeconds} s`,
    );
  }

  override extensions(): Record<string, unknown> {
    return { limit: 'RATE_LIMIT_MUTATIONS', max: this.max, retryAfterSeconds: this.retryAfterSeconds };
  }
}

/** Root fields of a selection set, fragments followed (`__typename` is free). */
export function countRootFields(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value !== '__typename') count++;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += countRootFields(selection.selectionSet, fragments, seen);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (fragment && !seen.has(name)) {
        seen.add(name);
        count += countRootFields(fragment.selectionSet, fragments, seen);
      }
    }
  }
  return count;
}

/** The Apollo plugin refusing mutations past the limit. */
export function rateLimitPlugin(limiter: RateLimiter): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, contextValue }) {
          if (operation?.operation !== 'mutation' || limiter.limit <= 0) return;
          const fragments = new Map<string, FragmentDefinitionNode>();
          for (const definition of document.definitions) {
            if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
          }
          const units = Math.max(1, countRootFields(operation.selectionSet, fragments));
          const decision = await limiter.take(contextValue.clientAddress, units);
          if (decision.allowed) return;
          const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
          throw refusal(new RateLimitedError(limiter.limit, limiter.windowMs, units, retryAfter), 429, retryAfter);
        },
      };
    },
  };
}
