/**
 * Fuzz families that attack the values inside well-formed requests (test/hardening/fuzz.test.ts
 * runs them): path queries with wrong types, unknown squares, pieces and fields (as variables and
 * as literals); bitboards of every length; FENs; Betza texts in questions and diagrams; boards of
 * 0 to 10^6 files; batches of 0 to 10^5 queries; page sizes up to 10^9 and past Int, and forged
 * cursors.
 */
import fc from 'fast-check';
import {
  anyJson,
  boardValue,
  type Case,
  fenText,
  gqlBody,
  hexDigits,
  lit,
  PIECES,
  pathQueryValue,
  post,
  queryLiteral,
  RESULT_FIELDS,
  side,
  squareList,
  squareText,
  VALID_QUERIES,
} from './values.js';

/** Path queries where any field may be wrong, as variables and as literals, and variables of any JSON. */
export const wrongTypes: fc.Arbitrary<Case> = fc.oneof(
  pathQueryValue.map((q) =>
    post(
      'query: variables',
      gqlBody(`query($q: PathQuery!) { shortestPaths(query: $q) { ${RESULT_FIELDS} } }`, { q }),
      true,
    ),
  ),
  pathQueryValue.map((q) =>
    post('query: literals', gqlBody(`{ shortestPaths(query: ${queryLiteral(q)}) { ${RESULT_FIELDS} } }`), true),
  ),
  fc
    .record({ q: anyJson, extra: fc.dictionary(fc.string({ maxLength: 4 }), anyJson, { maxKeys: 3 }) })
    .map(({ q, extra }) =>
      post(
        'query: variables',
        gqlBody('query($q: PathQuery!) { shortestPaths(query: $q) { distance } }', { q, ...extra }),
      ),
    ),
);

/**
 * Bitboards against boards of 1 to 12 squares a side. Input may have fewer digits than the output's
 * ceil(files*ranks/4) (docs/path-semantics.md), so those may succeed; a set bit beyond the board,
 * through a non-zero extra digit or a high bit of the last digit, must be refused.
 */
export const bitboards: fc.Arbitrary<Case> = fc
  .tuple(
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: -3, max: 3 }),
    fc.nat(),
    fc.boolean(),
  )
  .chain(([files, ranks, delta, seed, pastBoard]) => {
    const full = Math.ceil((files * ranks) / 4);
    const digits = Math.max(0, full + delta);
    return hexDigits(digits, digits).map((hex) => {
      let text = hex;
      let refuse = false;
      const spare = full * 4 - files * ranks;
      if (delta > 0) {
        // Extra digits with a non-zero top digit: a bit beyond the board.
        text = `1${hex.slice(1)}`;
        refuse = true;
      } else if (pastBoard && delta === 0 && spare > 0) {
        // The top digit's spare bits are beyond the board.
        text = `f${hex.slice(1)}`;
        refuse = true;
      }
      const q = {
        piece: PIECES[seed % PIECES.length],
        board: { files, ranks },
        from: ['a1'],
        to: ['a1'],
        mask: `0x${text}`,
      };
      return post(
        'bitboards',
        gqlBody('query($q: PathQuery!) { shortestPaths(query: $q) { distance mask } }', { q }),
        !refuse,
      );
    });
  });

/** FEN-like texts in positions (with boards and paths), in path queries, and as literals. */
export const fens: fc.Arbitrary<Case> = fc.oneof(
  fc
    .tuple(fenText, fc.option(boardValue, { nil: undefined }), squareText, squareList, fc.boolean())
    .map(([fen, board, from, to, avoidAttacked]) =>
      post(
        'fen: positions',
        gqlBody(
          'query($fen: String!, $board: BoardInput, $from: Square!, $to: [Square!]!, $a: Boolean) { position(fen: $fen, board: $board) { fen turn board { files ranks } pieces { square role color } occupied { count } paths(from: $from, to: $to, avoidAttacked: $a) { distance } } }',
          { fen, board, from, to, a: avoidAttacked },
        ),
        true,
      ),
    ),
  fenText.map((fen) =>
    post(
      'fen: in queries',
      gqlBody('query($q: PathQuery!) { shortestPaths(query: $q) { distance } }', {
        q: { piece: 'KING', from: ['a1'], to: ['h8'], fen },
      }),
      true,
    ),
  ),
  fenText.map((fen) =>
    post('fen: literals', gqlBody(`{ position(fen: ${lit(fen)}) { turn pieces { square } } }`), true),
  ),
);

/** Betza texts: the subset's letters in any order and length, and anything else. */
const betzaText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'WFDNAHCZGKRBQfbrlvsnmc0123456789'), maxLength: 40 }),
  fc.string({ maxLength: 80 }),
  fc.constantFrom('NN', 'N256', 'N257', 'N01', 'pN', 'frK', 'KK', 'WW3', 'c W', '', ' ', 'Q'.repeat(70)),
);

/** Betza texts in path questions and in diagram URLs. */
export const betzas: fc.Arbitrary<Case> = fc.oneof(
  fc
    .tuple(betzaText, fc.constantFrom('FAIRY', 'KING', 'FAIRY'), fc.option(boardValue, { nil: undefined }))
    .map(([betza, piece, board]) =>
      post(
        'betza: texts',
        gqlBody('query($q: PathQuery!) { shortestPaths(query: $q) { piece betza distance pathCount } }', {
          q: { piece, betza, board, from: ['a1'], to: ['h8'] },
        }),
        true,
      ),
    ),
  betzaText.map(
    (betza): Case => ({
      family: 'betza: diagrams',
      method: 'GET',
      path: `/diagram.svg?betza=${encodeURIComponent(betza)}&from=a1&to=h8`,
      headers: {},
      maySucceed: true,
    }),
  ),
);

/** Path questions on boards of any side, valid or not. */
export const boards: fc.Arbitrary<Case> = fc
  .tuple(side, side, squareText, fc.constantFrom(...PIECES))
  .map(([files, ranks, to, piece]) =>
    post(
      'boards',
      gqlBody('query($q: PathQuery!) { shortestPaths(query: $q) { board { files ranks } distance } }', {
        q: { piece, board: { files, ranks }, from: ['a1'], to: [to] },
      }),
      true,
    ),
  );

/** Batches of 0 to 10^5 valid queries, one of them sometimes off the board, as variables or literals. */
export const batches: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constantFrom(0, 1, 2, 499, 500, 501, 1000, 10_000), weight: 12 },
      { arbitrary: fc.integer({ min: 0, max: 600 }), weight: 12 },
      { arbitrary: fc.constant(100_000), weight: 1 },
    ),
    fc.option(fc.nat(), { nil: undefined }),
    fc.boolean(),
  )
  .map(([n, bad, literal]) => {
    const queries: Record<string, unknown>[] = Array.from(
      { length: n },
      (_, i) => VALID_QUERIES[i % VALID_QUERIES.length],
    );
    if (bad !== undefined && n > 0) queries[bad % n] = { piece: 'KING', from: ['a1'], to: ['h9'] };
    const valid = n <= 500 && (bad === undefined || n === 0);
    if (literal && n <= 2000) {
      return post(
        'batches: literals',
        gqlBody(`{ shortestPathsBatch(queries: [${queries.map(queryLiteral).join(' ')}]) { distance } }`),
        valid,
      );
    }
    return post(
      'batches: variables',
      gqlBody('query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }', { q: queries }),
      valid,
    );
  });

/** Values of `first`, as literals: negative, on the limit, past it, past Int, of other types. */
const FIRSTS = [
  '-1',
  '-2147483648',
  '0',
  '1',
  '1000',
  '1001',
  '1000000000',
  '2147483647',
  '2147483648',
  '1e9',
  '10000000000000000000000',
  '"10"',
  'null',
  '1.5',
];
const base64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

/** Cursors: random text, forged path and analysis cursors, and odd or huge ones. */
const cursorText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.integer({ min: -1, max: 5000 }), { maxLength: 8 }).map((path) => base64url(`path:${path.join('.')}`)),
  fc
    .tuple(fc.integer({ min: -1, max: 2 ** 53 }), fc.string({ maxLength: 40 }))
    .map(([ms, id]) => base64url(`analysis:${ms}:${id}`)),
  fc.constantFrom('', '!!', '====', base64url('path:'), base64url('path:28.19.10.1.0.0'), 'x'.repeat(600_000)),
);

/** `first` from 0 to past Int, as literals and variables, and forged cursors, on paths and analyses. */
export const pages: fc.Arbitrary<Case> = fc.oneof(
  fc
    .constantFrom(...FIRSTS)
    .map((first) =>
      post(
        'pages: first (literal)',
        gqlBody(
          `{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { paths(first: ${first}) { totalCount edges { cursor } } } }`,
        ),
        ['0', '1', '1000', 'null'].includes(first),
      ),
    ),
  fc
    .constantFrom(...FIRSTS)
    .map((first) =>
      post(
        'pages: first (literal)',
        gqlBody(`{ analyses(first: ${first}) { totalCount } }`),
        ['0', '1', '1000', 'null'].includes(first),
      ),
    ),
  fc
    .oneof(fc.constantFrom(-1, -(2 ** 31), 0, 1000, 1001, 10 ** 9, 2 ** 31 - 1, 2 ** 31, 2 ** 53, 1.5), anyJson)
    .map((first) =>
      post(
        'pages: first (variable)',
        gqlBody(
          'query($n: Int) { shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { paths(first: $n) { totalCount } } }',
          { n: first },
        ),
        true,
      ),
    ),
  fc
    .oneof(fc.constantFrom(-1, 1001, 10 ** 9, 2 ** 31), anyJson)
    .map((first) =>
      post(
        'pages: first (variable)',
        gqlBody('query($n: Int) { analyses(first: $n) { totalCount } }', { n: first }),
        true,
      ),
    ),
  cursorText.map((after) =>
    post(
      'pages: cursors',
      gqlBody(
        'query($a: String) { shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { paths(first: 2, after: $a) { edges { cursor } } } }',
        { a: after },
      ),
      true,
    ),
  ),
  cursorText.map((after) =>
    post(
      'pages: cursors',
      gqlBody('query($a: String) { analyses(first: 2, after: $a) { totalCount } }', { a: after }),
      true,
    ),
  ),
);
