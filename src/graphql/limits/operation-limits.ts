/**
 * Limits on the shape of an operation, checked before it runs: depth, aliases and directives (by
 * graphql-armor's validation rules) and tokens (by graphql-js's parser). Each breach is reported
 * as an `OperationLimitError` that names the variable and its maximum, with the code of the phase
 * that found it (validation or parsing, as Apollo reports them).
 *
 * graphql-armor's rules are told not to throw their own errors (`propagateOnRejection: false`)
 * and to report ours instead. graphql-js's parser raises its token limit as an ordinary syntax
 * error; a failed parse is recognised as the token limit by position, not by its wording: it
 * fails exactly at the first token past the limit, which `tokenLimitPlugin` finds by lexing the
 * document again (only when parsing failed, at most MAX_TOKENS + 1 tokens).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, Lexer, Source, TokenKind, type ValidationContext } from 'graphql';
import { LIMIT_VARIABLES, type Limits } from '../../config.js';
import { ErrorCode, findCause, ServiceError } from '../../errors.js';

/** An operation over one of the shape limits (MAX_DEPTH, MAX_ALIASES, MAX_DIRECTIVES, MAX_TOKENS). */
export class OperationLimitError extends ServiceError {
  override readonly name = 'OperationLimitError';
  constructor(
    readonly code: ErrorCode.ParseFailed | ErrorCode.ValidationFailed,
    /** Which limit. */
    readonly limit: keyof Limits,
    /** Its configured maximum. */
    readonly max: number,
    /** What is over it, e.g. `Operation has more than 30 aliases`. */
    what: string,
  ) {
    super(`${what} (${LIMIT_VARIABLES[limit]})`);
  }

  override extensions(): Record<string, unknown> {
    return { limit: LIMIT_VARIABLES[this.limit], max: this.max };
  }
}

/** graphql-armor's options. */
type ArmorConfig = NonNullable<ConstructorParameters<typeof ApolloArmor>[0]>;

/** A subscription: there is no Subscription type, and graphql-js would fail one as an internal error. */
export class UnsupportedOperationError extends ServiceError {
  override readonly name = 'UnsupportedOperationError';
  readonly code = ErrorCode.BadRequest;
  constructor() {
    super('Subscriptions are not supported: this service answers queries and mutations over HTTP');
  }
}

/** Reports an armor rule's breach as our own validation error. */
function reportBreach(limit: keyof Limits, max: number, what: string) {
  return [
    (ctx: ValidationContext | null) => {
      const cause = new OperationLimitError(ErrorCode.ValidationFailed, limit, max, what);
      ctx?.reportError(new GraphQLError(cause.message, { originalError: cause }));
    },
  ];
}

/** graphql-armor's configuration: depth, aliases and directives with our errors; cost and tokens are checked elsewhere. */
export function armorConfig(limits: Limits, hideSuggestions: boolean): ArmorConfig {
  const quiet = { propagateOnRejection: false };
  return {
    maxDepth: {
      n: limits.maxDepth,
      ...quiet,
      onReject: reportBreach('maxDepth', limits.maxDepth, `Query is deeper than ${limits.maxDepth} levels`),
    },
    maxAliases: {
      n: limits.maxAliases,
      // Armor leaves aliases of __typename out by default: each is a field of the answer all the same.
      allowList: [],
      ...quiet,
      onReject: reportBreach('maxAliases', limits.maxAliases, `Operation has more than ${limits.maxAliases} aliases`),
    },
    maxDirectives: {
      n: limits.maxDirectives,
      ...quiet,
      onReject: reportBreach(
        'maxDirectives',
        limits.maxDirectives,
        `Operation has more than ${limits.maxDirectives} directives`,
      ),
    },
    // Cost is computed with the request's variables, before execution (`cost.ts`).
    costLimit: { enabled: false },
    // Tokens are limited by graphql-js's own parser (below): armor's token rule parses every
    // document a second time.
    maxTokens: { enabled: false },
    // Suggestions only reveal what introspection would; hide them when introspection is off.
    blockFieldSuggestion: { enabled: hideSuggestions },
  };
}

/** Parse failures that were the token limit, and the error to report for each. */
const tokenBreaches = new WeakMap<object, OperationLimitError>();

/** Where the first token past `max` starts, or undefined when the document has no more than `max` (or fails to lex before). */
function startOfTokenPast(source: string, max: number): number | undefined {
  const lexer = new Lexer(new Source(source));
  try {
    for (let count = 1; ; count++) {
      const token = lexer.advance();
      if (token.kind === TokenKind.EOF) return undefined;
      if (count > max) return token.start;
    }
  } catch {
    return undefined;
  }
}

/** Marks a parse failure at the first token past MAX_TOKENS as the token limit. */
export function tokenLimitPlugin<TContext extends object>(limits: Limits): ApolloServerPlugin<TContext> {
  const max = limits.maxTokens;
  return {
    async requestDidStart() {
      return {
        async parsingDidStart({ source }) {
          return async (error) => {
            if (!error || source.length <= max) return; // every token takes a character at least
            const at = (error as GraphQLError).positions?.[0];
            if (at !== undefined && at === startOfTokenPast(source, max)) {
              tokenBreaches.set(
                error,
                new OperationLimitError(
                  ErrorCode.ParseFailed,
                  'maxTokens',
                  max,
                  `Document contains more than ${max} tokens`,
                ),
              );
            }
          };
        },
      };
    },
  };
}

/** The token-limit error behind a parse failure, if it was one. */
export function tokenBreachOf(error: unknown): OperationLimitError | undefined {
  const failure = findCause(error, (e): e is object => typeof e === 'object' && e !== null && tokenBreaches.has(e));
  return failure && tokenBreaches.get(failure);
}
