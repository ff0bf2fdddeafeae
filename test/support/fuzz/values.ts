/**
 * The building blocks of the fuzz test (test/hardening/fuzz.test.ts): the `Case` a generator
 * produces (one HTTP request, and whether it may succeed), GraphQL literal printing, request
 * bodies (`gqlBody`, `post`), the valid documents and questions the generators start from, and
 * the fast-check arbitraries of the values they put into requests: square names, board sides and
 * boards, bitboard masks, FEN-like texts, piece names, and whole path queries where any field may
 * be wrong, missing or extra.
 */
import fc from 'fast-check';

/** One request a generator produced. */
export interface Case {
  family: string;
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The generator may have produced a valid request: a success is allowed. */
  maySucceed?: boolean;
}

/** The headers of a JSON POST: those of a case that sets none. */
export const JSON_HEADERS = { 'content-type': 'application/json' };

/** A GraphQL enum value in a literal. */
class EnumValue {
  constructor(readonly name: string) {}
}

/** Prints a JSON-like value as a GraphQL literal (strings through JSON's escapes). */
export function lit(value: unknown): string {
  if (value instanceof EnumValue) return value.name;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(lit).join(', ')}]`;
  return `{ ${Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${lit(v)}`)
    .join(', ')} }`;
}

/** A path query as a literal: a name-shaped piece becomes an enum value. */
export function queryLiteral(q: Record<string, unknown>): string {
  const copy: Record<string, unknown> = { ...q };
  if (typeof copy.piece === 'string' && /^[_A-Za-z][_0-9A-Za-z]*$/.test(copy.piece))
    copy.piece = new EnumValue(copy.piece);
  return lit(copy);
}

/** A GraphQL POST body: the document, its variables and any other fields of the envelope, as JSON. */
export const gqlBody = (query: string, variables?: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ query, variables, ...extra });

/** A POST case of `family`: JSON headers unless given, refused unless `maySucceed`. */
export const post = (
  family: string,
  body: string | Uint8Array,
  maySucceed = false,
  headers: Record<string, string> = JSON_HEADERS,
): Case => ({
  family,
  body,
  headers,
  maySucceed,
});

/** The seed example (a king from e4 to a1 and h8), answered exactly by a healthy server. */
export const SEED_DOC =
  '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { distance layers { squares } } }';

/** The schema's piece names. */
export const PIECES = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT', 'WHITE_PAWN', 'BLACK_PAWN'];

/** Text of `min` to `max` hexadecimal digits, either case. */
export const hexDigits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: min, maxLength: max });

/** Any JSON value, up to three levels deep. */
export const anyJson = fc.jsonValue({ maxDepth: 3 });

/** Square names: plausible, off-board, malformed, unicode, over-long. */
export const squareText = fc.oneof(
  fc.constantFrom(
    'a1',
    'h8',
    'e4',
    'a0',
    'a9',
    'i1',
    'z9',
    'aa1',
    'A1',
    'E4',
    ' e4',
    'e4 ',
    'e04',
    'e-1',
    'e4e4',
    '',
    '4e',
    'a99999999999',
    'zzzzzzzzzzzzzzz1',
    'iv256',
    'iw256',
    'é4',
    '\u0435\u0034',
    'a\uff11',
    '\u0000',
    'a1\u0000',
    'e\u200b4',
    'a'.repeat(17),
    'a1'.repeat(100),
  ),
  fc
    .tuple(
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzAZ'), maxLength: 4 }),
      fc.integer({ min: -5, max: 10_000_000 }),
    )
    .map(([file, rank]) => `${file}${rank}`),
  fc.string({ unit: 'binary', maxLength: 24 }),
);
const squareValue = fc.oneof({ arbitrary: squareText, weight: 8 }, { arbitrary: anyJson, weight: 1 });

/** Lists of squares: of square values mostly, else a bare square, null, or a valid list. */
export const squareList = fc.oneof(
  { arbitrary: fc.array(squareValue, { maxLength: 5 }), weight: 6 },
  { arbitrary: squareText, weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.array(fc.constantFrom('a1', 'b2', 'h8', 'e4'), { minLength: 1, maxLength: 3 }), weight: 2 },
);

/** Board sides: zero, negative, on the limit, past it, 10^6, past Int, fractions, wrong types. */
export const side = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1,
    2,
    8,
    9,
    16,
    63,
    64,
    65,
    255,
    256,
    257,
    1_000_000,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    1.5,
    1e300,
  ),
  fc.integer({ min: -10, max: 300 }),
  fc.constantFrom('8', null, true, [8], { n: 8 }),
);

/** Board inputs: sides of any kind, a side missing, an unknown field, or any JSON. */
export const boardValue = fc.oneof(
  fc.record({ files: side, ranks: side }),
  fc.record({ files: side }),
  fc.record({ files: side, ranks: side, squares: fc.integer() }),
  anyJson,
);

/** Bitboard text: right and wrong lengths, bits past the board, bad prefixes and digits. */
const maskValue = fc.oneof(
  hexDigits(0, 40).map((h) => `0x${h}`),
  hexDigits(1, 20),
  hexDigits(16, 16).map((h) => `0X${h}`),
  fc.constantFrom(
    '0x',
    '0x-ff',
    '0xff_ff',
    '0x\uff11\uff12',
    '0x0g',
    ' 0xff',
    '0xffffffffffffffff ',
    'ffffffffffffffff',
    `0x${'f'.repeat(16386)}`,
    `0x${'f'.repeat(16387)}`,
    `0x${'f'.repeat(100_000)}`,
    `0x1${'0'.repeat(16)}`,
  ),
  fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })),
);

/** One rank of FEN-like text: piece letters, run-lengths from 0 to 10^30, stray characters. */
const fenRank = fc
  .array(
    fc.oneof(
      fc.constantFrom(...'KQRBNPkqrbnp'),
      fc.constantFrom(
        '1',
        '2',
        '3',
        '7',
        '8',
        '9',
        '0',
        '10',
        '16',
        '64',
        '65',
        '99',
        '1000000000',
        '1000000000000000000000000000000',
      ),
      fc.constantFrom('x', 'Z', 'é', ' ', '-', '/'),
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(''));

/** FEN-like text: rank counts from 0 to 12, run-lengths from 0 to 10^30, bad letters and fields. */
export const fenText = fc.oneof(
  fc
    .tuple(
      fc.array(fenRank, { minLength: 0, maxLength: 12 }),
      fc.constantFrom('w', 'b', 'x', '', 'W'),
      fc.constantFrom('-', 'KQkq', 'KQkqKQkq', 'z'),
      fc.constantFrom('-', 'e3', 'z9', 'e33'),
      fc.constantFrom('0', '-1', 'abc', '99999999999999999999'),
      fc.constantFrom('1', '0', '-5', ''),
    )
    .map(([ranks, turn, castling, ep, half, full]) =>
      `${ranks.join('/')} ${turn} ${castling} ${ep} ${half} ${full}`.trim(),
    ),
  fc
    .array(fc.constantFrom('8', '4K3', 'p7', '7P', '2k5', '8/8'), { minLength: 0, maxLength: 12 })
    .map((r) => `${r.join('/')} w - - 0 1`),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.constantFrom(
    '8/8/8/8/8/8/8/8 w - - 0 1',
    '4k3/8/8/8/8/8/8/4K3 w - - 0 1',
    'p'.repeat(1_000_000),
    `${'8/'.repeat(100_000)}8 w - - 0 1`,
  ),
);

/** Piece names: valid, near misses, and other types. */
const pieceValue = fc.oneof(
  { arbitrary: fc.constantFrom(...PIECES), weight: 3 },
  { arbitrary: fc.constantFrom('PAWN', 'king', 'King', 'KING ', 'K', 'AMAZON', '', 'KING\u0000', 'KİNG'), weight: 3 },
  { arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.string({ unit: 'binary', maxLength: 10 })), weight: 1 },
);

/** A path query object where any field may be wrong, missing, or extra. */
export const pathQueryValue = fc.record(
  {
    piece: pieceValue,
    from: squareList,
    to: squareList,
    board: boardValue,
    mask: maskValue,
    blocked: squareList,
    fen: fenText,
    colour: fc.constantFrom('WHITE', 1),
  },
  { requiredKeys: [] },
);

/** The fields of a path result a question asks for. */
export const RESULT_FIELDS = 'key distance reachable pathCount layers { squares } path { squares }';

/** Valid path questions, for batches and saves. */
export const VALID_QUERIES = [
  { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] },
  { piece: 'KNIGHT', from: ['b1'], to: ['c3'] },
  { piece: 'ROOK', from: ['a1'], to: ['h8'], blocked: ['a4'] },
  { piece: 'BISHOP', from: ['c1'], to: ['h6'] },
  { piece: 'WHITE_PAWN', from: ['e2'], to: ['e4'] },
];

/** The analysis mutations, taking their arguments as variables. */
export const MUTATIONS = {
  update:
    'mutation($id: ID!, $t: String!, $i: UpdateAnalysisInput!) { updateAnalysis(id: $id, editToken: $t, input: $i) { id } }',
  delete: 'mutation($id: ID!, $t: String!) { deleteAnalysis(id: $id, editToken: $t) }',
  save: 'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id } } }',
};
