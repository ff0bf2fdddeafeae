/**
 * The contract's custom scalars. `Square` and `Bitboard` only check that a value is a string:
 * whether a name is on the board or a bitboard fits it depends on the board argument, so the
 * engine decides and reports it with the full argument path (`query.from[1]: "z9" is not a square
 * on an 8 x 8 board`), the same way for literals and variables, and for a text of any length (a
 * scalar's refusal would fail the whole request, and quote the whole text). The body limit bounds
 * the length. `BigInt` is written as a
 * decimal string (JSON numbers lose precision past 2^53). `DateTime` reuses graphql-scalars'
 * ISO-8601 scalar under the contract's name.
 */

import { previewValue } from '@chess-paths/engine';
import { GraphQLError, GraphQLScalarType, Kind, print, type ValueNode } from 'graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { ErrorCode } from '../../errors.js';

/** A scalar value of the wrong kind; reported as `BAD_USER_INPUT` even when it is a literal. */
export class ScalarInputError extends GraphQLError {
  constructor(message: string) {
    super(message, { extensions: { code: ErrorCode.BadUserInput } });
  }
}

/** A scalar value as its error message shows it. */
const preview = (value: unknown): string => previewValue(value, 40);

/** A literal as it was written (`12`, `e4`, `[1]`), shortened like a value. */
function previewLiteral(ast: ValueNode): string {
  const text = print(ast);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function stringScalar(name: string, what: string) {
  const check = (value: unknown): string => {
    if (typeof value !== 'string')
      throw new ScalarInputError(`${name} must be a string (${what}), got ${preview(value)}`);
    return value;
  };
  return {
    // Output comes from the engine: strings by construction, so serialising is the identity.
    serialize: (value: unknown) => (typeof value === 'string' ? value : check(value)),
    parseValue: (value: unknown) => check(value),
    parseLiteral: (ast: ValueNode) => {
      if (ast.kind !== Kind.STRING)
        throw new ScalarInputError(`${name} must be a string (${what}), got ${previewLiteral(ast)}`);
      return check(ast.value);
    },
  };
}

/** Square name, e.g. `e4`; validated against the board by the engine. */
export const SquareScalar = new GraphQLScalarType({
  name: 'Square',
  description: 'Square name: file letters then 1-based rank, e.g. e4, aa27.',
  ...stringScalar('Square', 'a square name such as "e4"'),
});

/** Square set as `0x` + hex digits; validated against the board by the engine. */
export const BitboardScalar = new GraphQLScalarType({
  name: 'Bitboard',
  description: 'Square set as text: 0x + ceil(files*ranks/4) hex digits, bit i = square i (a1 = bit 0).',
  ...stringScalar('Bitboard', 'a bitboard such as "0x0000000010000000"'),
});

function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^\d{1,1000}$/.test(value)) return BigInt(value);
  throw new ScalarInputError(`BigInt must be a non-negative integer as a decimal string, got ${preview(value)}`);
}

/** Arbitrary-size non-negative integer, written as a decimal string. */
export const BigIntScalar = new GraphQLScalarType({
  name: 'BigInt',
  description: 'Non-negative integer of any size, as a decimal string.',
  serialize: (value) => toBigInt(value).toString(),
  parseValue: (value) => toBigInt(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING && ast.kind !== Kind.INT) {
      throw new ScalarInputError(`BigInt must be a decimal string, got ${previewLiteral(ast)}`);
    }
    return toBigInt(ast.value);
  },
});

/** ISO-8601 date-time (graphql-scalars' DateTimeISO under the contract's name). */
export const DateTimeScalar = new GraphQLScalarType({
  ...GraphQLDateTimeISO.toConfig(),
  name: 'DateTime',
  description: 'ISO-8601 date-time string.',
});

/** The scalar implementations by schema name, for the resolver map. */
export const scalarResolvers = {
  Square: SquareScalar,
  Bitboard: BitboardScalar,
  BigInt: BigIntScalar,
  DateTime: DateTimeScalar,
};
