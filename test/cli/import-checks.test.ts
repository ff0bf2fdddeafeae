/**
 * What an import checks in each row's content: analyses as a save checks its input (with the
 * configuration's limits), cached results against the engine's own answer. Rows come from
 * export lines parsed as the import parses them, valid first, then edited one field at a time.
 */
import type { PathQuery } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { analysisRefusal, cachedResultRefusal, importChecks } from '../../src/cli/import-checks.js';
import { loadConfig } from '../../src/config.js';
import type { AnalysisLine, CachedResultLine } from '../../src/store/transfer/format.js';
import { parseLine } from '../../src/store/transfer/parse.js';
import { analysisLine, cachedResultLine } from '../support/export-lines.js';

const { limits } = loadConfig({});

/** The columns the import reads from `line`. */
function columnsOf(line: AnalysisLine | CachedResultLine) {
  const parsed = parseLine(JSON.stringify(line), 2, { maxAnalysisBytes: 1 << 20 });
  if (parsed.type !== 'analysis' && parsed.type !== 'cachedResult') throw new Error('not a row');
  return parsed.columns;
}

const analysis = (overrides: Partial<AnalysisLine> = {}) =>
  analysisRefusal(columnsOf(analysisLine(overrides)) as Parameters<typeof analysisRefusal>[0], limits);

const cached = (query: PathQuery, overrides: Partial<CachedResultLine> = {}) =>
  cachedResultRefusal(columnsOf(cachedResultLine(query, overrides)) as Parameters<typeof cachedResultRefusal>[0]);

describe('importChecks: analyses', () => {
  it('passes an analysis a save would take: notes, FEN, a game with castling, fairy and orthodox queries', () => {
    expect(
      analysis({
        title: 'Étude ♞ 𝄞',
        notes: 'line\tbreak',
        fen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
        pgn: '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 *',
        queries: [
          { piece: 'KNIGHT', from: ['a1'], to: ['h8'] },
          { piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'], board: { files: 10, ranks: 10 } },
          { piece: 'ROOK', from: ['a1'], to: ['h8'], blocked: ['b1'] },
        ],
      }),
    ).toBeUndefined();
    expect(analysis({ pgn: '   ', queries: [] })).toBeUndefined();
  });

  it('refuses what a save refuses, naming the analysis and the field', () => {
    expect(analysis({ title: '  ' })).toBe('the analysis "analysis-1": its title is empty (an analysis needs a title)');
    // The parse refuses such text first (no database stores it as it is); the check holds as a save's does.
    const surrogate = { ...columnsOf(analysisLine()), title: 'a\ud800b' } as Parameters<typeof analysisRefusal>[0];
    expect(analysisRefusal(surrogate, limits)).toMatch(
      /^the analysis "analysis-1": title: .* unpaired UTF-16 surrogate/,
    );
    expect(analysis({ notes: 'x'.repeat(limits.maxTextLength + 1) })).toBe(
      `the analysis "analysis-1": notes: ${limits.maxTextLength + 1} characters is over the limit of ${limits.maxTextLength} (MAX_TEXT_LENGTH)`,
    );
    expect(analysis({ fen: 'garbage fen' })).toMatch(
      /^the analysis "analysis-1": fen: "garbage fen" is not a valid FEN/,
    );
    expect(analysis({ pgn: '1. e4 e5 2. Ke3 *' })).toMatch(/^the analysis "analysis-1": pgn: .*Ke3/);
    const big = { piece: 'KING', from: ['a1'], to: ['b2'], board: { files: 300, ranks: 300 } };
    expect(analysis({ queries: [big], resultKeys: ['0'.repeat(64)] })).toMatch(
      /^the analysis "analysis-1": queries\[0\]\.board\.files: files 300 is over the limit of 64 \(MAX_BOARD_SIDE\)/,
    );
    const dragon = { piece: 'DRAGON', from: ['a1'], to: ['b2'] };
    expect(analysis({ queries: [dragon], resultKeys: ['0'.repeat(64)] })).toMatch(/queries\[0\]\.piece: "DRAGON"/);
    const offBoard = { piece: 'KING', from: ['z99'], to: ['b2'] };
    expect(analysis({ queries: [offBoard], resultKeys: ['0'.repeat(64)] })).toMatch(/queries\[0\]\.from\[0\]: "z99"/);
    const many = Array.from({ length: limits.maxBatchSize + 1 }, () => ({ piece: 'KING', from: ['a1'], to: ['b2'] }));
    expect(analysis({ queries: many })).toMatch(/queries: \d+ queries is over the limit of \d+ \(MAX_BATCH_SIZE\)$/);
  });

  it('refuses a query with a field the API’s PathQuery input does not have', () => {
    const knight = { piece: 'KNIGHT', from: ['a1'], to: ['h8'] };
    expect(analysis({ queries: [knight, { ...knight, bogus: 1 } as PathQuery] })).toBe(
      'the analysis "analysis-1": queries[1] has a field "bogus" a path question does not have (piece, from, to, board, mask, blocked, fen, betza)',
    );
    const board = { ...knight, board: { files: 8, ranks: 8, depth: 2 } } as PathQuery;
    expect(analysis({ queries: [board] })).toBe(
      'the analysis "analysis-1": queries[0].board has a field "depth" a board does not have (files, ranks)',
    );
    expect(analysis({ queries: [{ ...knight, board: null, mask: null, blocked: null, fen: null, betza: null }] })).toBe(
      undefined,
    );
  });

  it('refuses result keys that are not their queries’ keys', () => {
    const line = analysisLine({ queries: [{ piece: 'KING', from: ['a1'], to: ['b2'] }] });
    const other = analysisLine({ queries: [{ piece: 'QUEEN', from: ['a1'], to: ['b2'] }] });
    expect(analysis({ queries: line.queries, resultKeys: other.resultKeys })).toBe(
      `the analysis "analysis-1": resultKeys[0] is ${other.resultKeys[0]}, but the key of queries[0] is ${line.resultKeys[0]}`,
    );
  });
});

describe('importChecks: cached results', () => {
  const KNIGHT: PathQuery = { piece: 'KNIGHT', from: ['g8'], to: ['e5'] };

  it('passes rows as the service writes them: orthodox, fairy, unreachable, without a path count', () => {
    expect(cached(KNIGHT)).toBeUndefined();
    expect(cached({ piece: 'FAIRY', betza: 'nN', from: ['a1'], to: ['i10'], board: { files: 9, ranks: 10 } })).toBe(
      undefined,
    );
    expect(cached({ piece: 'BISHOP', from: ['a1'], to: ['a2'] })).toBeUndefined();
    expect(cached(KNIGHT, { pathCount: null })).toBeUndefined();
  });

  it('refuses a row whose answer is not its question’s', () => {
    const line = cachedResultLine(KNIGHT);
    expect(line.pathCount).toBe('6');
    expect(cached(KNIGHT, { pathCount: '999' })).toBe(
      `the cached result ${line.key} says 999 shortest paths, but its question has 6`,
    );
    expect(cached(KNIGHT, { distance: 1 })).toBe(
      `the cached result ${line.key} says distance 1, but its question's distance is 3`,
    );
    const rook = cachedResultLine({ piece: 'ROOK', from: ['g8'], to: ['e5'] });
    expect(cached(KNIGHT, { layers: rook.layers })).toBe(
      `the cached result ${line.key} holds layers that are not its question's answer`,
    );
    expect(cached(KNIGHT, { layers: 'AAAA' })).toMatch(/holds layers that are not|cannot be read/);
  });

  it('refuses a row filed under another question’s key, or holding no question', () => {
    const queen = cachedResultLine({ piece: 'QUEEN', from: ['g8'], to: ['e5'] });
    const line = cachedResultLine(KNIGHT);
    expect(cached(KNIGHT, { key: queen.key })).toBe(
      `the cached result ${queen.key} is filed under the wrong key: its question's key is ${line.key}`,
    );
    expect(cached(KNIGHT, { piece: 'DRAGON' })).toMatch(/does not hold a question the engine reads/);
    expect(cached(KNIGHT, { piece: 'FAIRY:pN' })).toMatch(/does not hold a question the engine reads/);
  });

  it('is what importChecks runs for each kind of row', () => {
    const check = importChecks(limits);
    const row = columnsOf(cachedResultLine(KNIGHT, { pathCount: '7' })) as Parameters<typeof cachedResultRefusal>[0];
    expect(check({ kind: 'cachedResult', row })).toMatch(/says 7 shortest paths/);
    const bad = columnsOf(analysisLine({ title: '' })) as Parameters<typeof analysisRefusal>[0];
    expect(check({ kind: 'analysis', row: bad })).toMatch(/title is empty/);
  });
});
