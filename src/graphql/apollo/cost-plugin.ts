/**
 * The Apollo plugin that applies the cost model (`limits/cost.ts`) to every request in
 * `didResolveOperation`, where the operation is chosen, its variables are known and nothing has
 * run: an operation over MAX_COST is refused with HTTP 400 and `CostLimitError`; an accepted one
 * has its cost recorded for `costOf` and handed to `onCost` (admission control uses its work).
 * The limit is the HTTP request's, not each operation's: the operations of a batch add up, so a
 * batch of twenty costs what its twenty operations cost together. An operation without variables
 * is costed once per document (its cost depends on its text alone).
 */
import type { ApolloServerPlugin, BaseContext, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import type { Limits } from '../../config.js';
import { ErrorCode, ServiceError } from '../../errors.js';
import { type OperationCost, operationCost } from '../limits/cost.js';
import { refusal } from '../request/errors.js';

/** An operation whose cost is over MAX_COST. */
export class CostLimitError extends ServiceError {
  override readonly name = 'CostLimitError';
  readonly code = ErrorCode.BadUserInput;
  constructor(
    /** The operation's cost, with the operations of its batch before it. */
    readonly cost: number,
    /** MAX_COST. */
    readonly max: number,
    /** Whether earlier operations of the same batch count in `cost`. */
    batched = false,
  ) {
    super(`${batched ? 'Batch' : 'Query'} cost of ${cost} is over the limit of ${max} (MAX_COST)`);
  }

  override extensions(): Record<string, unknown> {
    return { limit: 'MAX_COST', max: this.max, cost: this.cost };
  }
}

const costs = new WeakMap<object, OperationCost>();

/** The cost and work `costPlugin` counted so far for the request with this key (see `requestOf`). */
export function costOf(requestKey: object): OperationCost | undefined {
  return costs.get(requestKey);
}

/** Called with the request's cost and work so far (e.g. for admission control); may throw to refuse. */
export type OnCost<TContext extends BaseContext> = (
  requestContext: GraphQLRequestContextDidResolveOperation<TContext>,
  cost: OperationCost,
) => void | Promise<void>;

/**
 * Apollo plugin: refuses an operation that takes its request's cost over `limits.maxCost` (HTTP
 * 400, BAD_USER_INPUT, `limit: 'MAX_COST'`) before it executes; otherwise adds its cost to the
 * request's for `costOf` and awaits `onCost` with the sum. `requestOf` maps an operation's context
 * to its HTTP request (Apollo gives each operation of a batch its own shallow copy of the context);
 * by default each context is a request of its own.
 */
export function costPlugin<TContext extends BaseContext>(
  limits: Limits,
  onCost?: OnCost<TContext>,
  requestOf: (contextValue: TContext) => object = (contextValue) => contextValue,
): ApolloServerPlugin<TContext> {
  // An operation without variables costs what its text says: worked out once per document kept
  // by the document store (`document-store.ts`: the same object comes back for the same text).
  const fixedCosts = new WeakMap<DocumentNode, Map<string, OperationCost>>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(requestContext) {
          const { request, document, schema, contextValue, operation } = requestContext;
          const fixed = !operation?.variableDefinitions?.length;
          const name = request.operationName ?? '';
          let result = fixed ? fixedCosts.get(document)?.get(name) : undefined;
          if (!result) {
            result = operationCost({
              schema,
              document,
              operationName: request.operationName,
              variables: request.variables,
              limits,
            });
            if (fixed) {
              let byName = fixedCosts.get(document);
              if (!byName) fixedCosts.set(document, (byName = new Map()));
              byName.set(name, Object.freeze(result));
            }
          }
          const key = requestOf(contextValue);
          const before = costs.get(key);
          const total = before ? { cost: before.cost + result.cost, work: before.work + result.work } : result;
          if (total.cost > limits.maxCost) {
            throw refusal(new CostLimitError(total.cost, limits.maxCost, before !== undefined), 400);
          }
          costs.set(key, total);
          await onCost?.(requestContext, total);
        },
      };
    },
  };
}
