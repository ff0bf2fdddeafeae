/**
 * Lines of a `chess-paths export` file made here, without a database: an analysis whose result
 * keys are its queries' own, a cached result solved by the engine as the service would have
 * written it, and a whole file around them. Tests of what an import checks edit them.
 */
import { encodeLayers, type PathQuery, packLayers, prepareQuery, solvePrepared } from '@chess-paths/engine';
import type { AnalysisLine, CachedResultLine } from '../../src/store/transfer/format.js';

const AT = '2026-11-28T06:00:00.000Z';

/** An analysis line with valid content: `overrides` replace fields; queries get their keys unless given. */
export function analysisLine(overrides: Partial<AnalysisLine> = {}): AnalysisLine {
  const queries = (overrides.queries ?? [{ piece: 'KNIGHT', from: ['a1'], to: ['h8'] }]) as PathQuery[];
  return {
    type: 'analysis',
    id: 'analysis-1',
    title: 'Knight tour',
    notes: null,
    fen: null,
    pgn: null,
    queries,
    resultKeys: overrides.resultKeys ?? queries.map((q) => prepareQuery(q).key),
    version: 1,
    createdAt: AT,
    updatedAt: AT,
    editTokenHash: 'a'.repeat(64),
    ...overrides,
  };
}

/** The cache line the service would write for `query` (its path count counted); `overrides` replace fields. */
export function cachedResultLine(query: PathQuery, overrides: Partial<CachedResultLine> = {}): CachedResultLine {
  const prepared = prepareQuery(query);
  const solved = solvePrepared(prepared);
  const { problem } = prepared;
  return {
    type: 'cachedResult',
    key: prepared.key,
    piece: problem.betza === undefined ? problem.piece : `${problem.piece}:${problem.betza}`,
    files: problem.files,
    ranks: problem.ranks,
    mask: problem.mask,
    sources: problem.sources,
    targets: problem.targets,
    distance: solved.distance,
    pathCount: solved.pathCount.toString(),
    createdAt: AT,
    hitCount: 0,
    lastHitAt: AT,
    layers: Buffer.from(encodeLayers(packLayers(solved))).toString('base64'),
    ...overrides,
  };
}

/** A whole export file of these lines (with `--cache` when any is a cached result). */
export function exportFile(lines: (AnalysisLine | CachedResultLine)[]): string {
  const analyses = lines.filter((l) => l.type === 'analysis').length;
  const cachedResults = lines.length - analyses;
  const header = { type: 'header', format: 'chess-paths-export', version: 1, exportedAt: AT, cache: cachedResults > 0 };
  return `${[header, ...lines, { type: 'end', analyses, cachedResults }].map((l) => JSON.stringify(l)).join('\n')}\n`;
}
