/**
 * The "Memory" group of the configuration table (`../config.ts`, which spreads it in): the bound of
 * every cache the server keeps in memory, in a file of its own so that the table stays readable.
 * The defaults are the caches' own (each module's constant), so a cache built without a
 * configuration (tests, the command line) is bounded the same way.
 */

import { DEFAULT_ENGINE_CACHE_BYTES } from '@chess-paths/engine';
import { group, integer } from './kinds.js';
import { sets } from './types.js';

/** 1 MiB, for the defaults below. */
const MiB = 1024 * 1024;

export const MEMORY = group(
  'Memory',
  "What the server keeps in memory between requests. Every cache is bounded in bytes, estimated from what its entries hold (2 bytes a character of text, typed arrays by their bytes, a few words an object), and keeps no entry over an eighth of its bound: one request can never fill a cache with one entry, and all it can leave behind is within these bounds. `/metrics` shows each cache's bytes, entries and bound (`chess_paths_cache_bytes`, `chess_paths_cache_entries`, `chess_paths_cache_max_bytes`, labelled `cache`). Each replica has its own; the engine's caches (Betza texts, boards) are per thread: the main thread and each worker thread keep their own within the same bound.",
  {
    RESULT_MEMO_SIZE: sets({
      key: 'resultMemoSize',
      kind: integer(0),
      default: 10_000,
      doc: 'Hot results kept ready to serve in memory, at most RESULT_MEMO_BYTES of them; also the most prepared problems remembered (PREPARED_QUERY_BYTES). 0 turns both off.',
    }),
    RESULT_MEMO_BYTES: sets({
      key: 'resultMemoBytes',
      kind: integer(0),
      default: 64 * MiB,
      doc: 'Most bytes of hot results, each weighed by its layers and the views its fields build (a few kilobytes for an 8 x 8 question). 0 turns the memo off.',
    }),
    PREPARED_QUERY_BYTES: sets({
      key: 'preparedQueryBytes',
      kind: integer(0),
      default: 16 * MiB,
      doc: 'Most bytes of prepared problems remembered by the text of their query (a repeated question then skips its validation and hashing): about 1 KB for an 8 x 8 question, at most some 12 KB (texts of at most 4 KB, boards of at most 1,024 squares). 0 turns it off.',
    }),
    RESPONSE_CACHE_SIZE: sets({
      key: 'responseCacheSize',
      kind: integer(0),
      default: 10_000,
      doc: 'Whole responses kept to send again for the same request text (Accept header and body), only for queries answered entirely from memoised results with no error, and only for a text that came in before (a question asked once keeps nothing), at most RESPONSE_CACHE_BYTES of them. 0 turns it off.',
    }),
    RESPONSE_CACHE_BYTES: sets({
      key: 'responseCacheBytes',
      kind: integer(0),
      default: 32 * MiB,
      doc: 'Most bytes of kept responses, request texts and responses at 2 bytes a character (a request of at most 16 KiB characters, a response of at most 64 KiB). 0 turns it off.',
    }),
    GAME_CACHE_BYTES: sets({
      key: 'gameCacheBytes',
      kind: integer(0),
      default: 64 * MiB,
      doc: 'Most bytes of games read from PGN, kept by their text for the next request that asks for it (`game(pgn:)`, `Analysis.game`, saves). A game weighs its tags and its plies with their SAN, UCI and FEN: tens of kilobytes for 80 plies, some 300 to 500 KB for 1,000, about 1 MB for a text of tag pairs at MAX_PGN_BYTES. 0 keeps none (requests asking for one text at once still share one reading).',
    }),
    DOCUMENT_CACHE_BYTES: sets({
      key: 'documentCacheBytes',
      kind: integer(0),
      default: 30 * MiB,
      doc: "Most bytes of parsed and validated GraphQL documents, by their text's hash, each weighed 16 bytes a character of its text (about its syntax tree): a text that comes again is neither parsed nor validated. Kept from a text's second time. 0 keeps none.",
    }),
    SHAPE_CACHE_BYTES: sets({
      key: 'shapeCacheBytes',
      kind: integer(0),
      default: 4 * MiB,
      doc: 'Most bytes of the shapes of validated documents (the text with its values blanked out), at most 1,000 of them: a new document of a known shape is validated by the rules that read values alone. 0 keeps none.',
    }),
    BETZA_CACHE_BYTES: sets({
      key: 'betzaCacheBytes',
      kind: integer(0),
      default: DEFAULT_ENGINE_CACHE_BYTES.betza,
      doc: 'Most bytes of fairy pieces read from Betza texts, kept by text and by canonical text (at most 256 texts), in each thread: a piece takes about 1.5 KB, one of many rides tens of kilobytes, and reading a text again takes up to tens of milliseconds. 0 keeps none.',
    }),
    BOARD_CACHE_BYTES: sets({
      key: 'boardCacheBytes',
      kind: integer(0),
      default: DEFAULT_ENGINE_CACHE_BYTES.boards,
      doc: "Most bytes of what the engine keeps per board size, in each thread: its edge and rank masks, the fill's scratch (which grows to the largest question it answered) and each fairy piece's tables on it. A 64 x 64 board's take tens of kilobytes, a 256 x 256 board's up to megabytes. 0 keeps none: every question builds them again.",
    }),
  },
);
