/**
 * The Apollo plugin that applies the cost model (`cost.ts`) to every request in
 * `didResolveOperation`, where the operation is chosen, its variables are known and nothing has
 * run: an operation over MAX_COST is refused with HTTP 400 and `CostLimitError`; an accepted one
 * has its cost recorded for `costOf` and handed to `onCost` (admission control uses its work).
 */
import type { ApolloServerPlugin, BaseContext, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import type { Limits } from '../config.js';
import { ErrorCode, ServiceError } from '../errors.js';
import { type OperationCost, operationCost } from './cost.js';
import { refusal } from './errors.js';

/** An operation whose cost is over MAX_COST. */
export class CostLimitError extends ServiceError {
  override readonly name = 'CostLimitError';
  readonly code = ErrorCode.BadUserInput;
  constructor(
    /** The operation's cost. */
    readonly cost: number,
    /** MAX_COST. */
    readonly max: number,
  ) {
    super(`Query cost of ${cost} is over the limit of ${max} (MAX_COST)`);
  }

  override extensions(): Record<string, unknown> {
    return { limit: 'MAX_COST', max: this.max, cost: this.cost };
  }
}

const costs = new WeakMap<object, OperationCost>();

/** The cost and work `costPlugin` computed for the request with this context value, once resolved. */
export function costOf(contextValue: object): OperationCost | undefined {
  return costs.get(contextValue);
}

/** Called with every accepted operation's cost and work (e.g. for admission control); may throw to refuse. */
export type OnCost<TContext extends BaseContext> = (
  requestContext: GraphQLRequestContextDidResolveOperation<TContext>,
  cost: OperationCost,
) => void | Promise<void>;

/**
 * Apollo plugin: refuses an operation whose cost is over `limits.maxCost` (HTTP 400,
 * BAD_USER_INPUT, `limit: 'MAX_COST'`) before it executes; otherwise records its cost for `costOf`
 * and awaits `onCost`.
 */
export function costPlugin<TContext extends BaseContext>(
  limits: Limits,
  onCost?: OnCost<TContext>,
): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(requestContext) {
          const { request, document, schema, contextValue } = requestContext;
          const result = operationCost({
            schema,
            document,
            operationName: request.operationName,
            variables: request.variables,
            limits,
          });
          if (result.cost > limits.maxCost) throw refusal(new CostLimitError(result.cost, limits.maxCost), 400);
          costs.set(contextValue, result);
          await onCost?.(requestContext, result);
        },
      };
    },
  };
}
