/**
 * The figures of `bench/attack.ts` and how they are judged: each attack's phases (latency,
 * statuses, GraphQL error codes, cut bodies, refusals without Retry-After), the goals (worst
 * `/health`, peak RSS, no 5xx but 503 with Retry-After, no reset, no cut body, shutdown within
 * SHUTDOWN_TIMEOUT_MS, database bytes per cached result), and the table printed at the end. Kept
 * apart so that attack.ts holds only the attacks and their runner.
 */

import type * as Q from './attack-queries.js';
import type { Exit } from './attack-server.js';

export const GOALS = { worstHealthMs: 250, aimHealthMs: 50, peakRssMb: 1024, dbBytesPerCachedResult: 16_384 };

export interface Phase {
  requests: number;
  latencyMs: { min: number; median: number; max: number };
  statuses: Record<string, number>;
  errorCodes: Record<string, number>;
  maxAnswerBytes: number;
  cachedTrue: number;
  /** Bodies that ended before their Content-Length (or broke after the status came). */
  cut: number;
  /** 5xx answers that came without Retry-After (a 503 with it is a refusal, counted but fine). */
  noRetryAfter5xx: number;
  /** Cut bodies are what this phase is about (clients that never read), not a failure. */
  cutExpected?: boolean;
  /** The first error message seen, if any. */
  errorSample?: string;
}

export function phaseOf(outcomes: Q.Outcome[], options: { cutExpected?: boolean } = {}): Phase {
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const tally = (pairs: [string, number][]) =>
    pairs.reduce<Record<string, number>>((t, [k, n]) => {
      t[k] = (t[k] ?? 0) + n;
      return t;
    }, {});
  return {
    requests: outcomes.length,
    latencyMs: {
      min: Math.round(ms[0] ?? 0),
      median: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
      max: Math.round(ms.at(-1) ?? 0),
    },
    statuses: tally(outcomes.map((o) => [o.status, 1])),
    errorCodes: tally(outcomes.flatMap((o) => Object.entries(o.codes))),
    maxAnswerBytes: Math.max(0, ...outcomes.map((o) => o.bytes)),
    cachedTrue: outcomes.reduce((n, o) => n + o.cachedTrue, 0),
    cut: outcomes.filter((o) => o.cut).length,
    noRetryAfter5xx: outcomes.filter((o) => /^5\d\d$/.test(o.status) && !o.retryAfter).length,
    ...(options.cutExpected && { cutExpected: true }),
    errorSample: outcomes.find((o) => o.firstError)?.firstError,
  };
}

export interface AttackResult {
  name: string;
  phases: Record<string, Phase>;
  probes: { health: Q.ProbeStats; typename: Q.ProbeStats };
  peakRssMb: number;
  peakRssSampledMb: number;
  /** RSS once the attack's clients are gone and the tail has passed (null when the server had exited). */
  rssAfterMb: number | null;
  dbBytes: number;
  dbBytesAfterExit: number;
  cacheRows: number | null;
  dbBytesPerCacheRow: number | null;
  exit: Exit & { sigtermDuringAttack: boolean; timeoutMs: number };
  serverEnv: Record<string, string>;
  /** The machine's 1-minute load average before and after the attack (the machine is shared). */
  loadavg1: [number, number];
  serverLog: { lines: number; samples: string[] };
  notes: Record<string, unknown>;
  seconds: number;
}

export function goalsOf(r: AttackResult) {
  const phases = Object.values(r.phases);
  // 5xx other than 503 with Retry-After, and resets; a phase whose clients never read is exempt.
  const judged = phases.filter((p) => !p.cutExpected);
  const fiveHundreds = judged.reduce(
    (n, p) =>
      n +
      Object.entries(p.statuses)
        .filter(([s]) => /^5\d\d$/.test(s) && s !== '503')
        .reduce((m, [, c]) => m + c, 0) +
      (p.statuses.reset ?? 0),
    0,
  );
  const bad = fiveHundreds + judged.reduce((n, p) => n + p.noRetryAfter5xx, 0);
  const cut = judged.reduce((n, p) => n + p.cut, 0);
  // Rows of the cache table, or (when it cannot be read) the most `cached: true` results per answer.
  const cached = r.cacheRows ?? Math.max(0, ...phases.map((p) => Math.round(p.cachedTrue / p.requests)));
  return {
    worstHealthMs: { value: r.probes.health.worstMs, ok: r.probes.health.worstMs <= GOALS.worstHealthMs },
    peakRssMb: { value: r.peakRssMb, ok: r.peakRssMb <= GOALS.peakRssMb },
    no5xxNoReset: { value: bad, ok: bad === 0 },
    noCutBody: { value: cut, ok: cut === 0 },
    shutdownInTime: {
      value: r.exit.ms,
      max: r.exit.timeoutMs,
      ok: !r.exit.died && (r.exit.ms ?? 0) <= r.exit.timeoutMs,
    },
    // The database goal is for 64 x 64 results (the default board limit); larger boards store more.
    ...((cached > 0 || r.name === 'maze-batch') &&
      !r.serverEnv.MAX_BOARD_SIDE && {
        dbBytesPerCachedResult: {
          value: cached ? Math.round(r.dbBytesAfterExit / cached) : null,
          cached,
          ok: !!cached && r.dbBytesAfterExit / cached <= GOALS.dbBytesPerCachedResult,
        },
      }),
  };
}

const fmt = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([k, n]) => `${k}:${n}`)
    .join(' ') || '-';
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);

export function printTable(results: (AttackResult & { goals: ReturnType<typeof goalsOf> })[]): void {
  const head = [
    'attack',
    'reqs',
    'min/med/max ms',
    'statuses',
    'codes',
    'cut',
    'health n/worst/p99',
    '__typename n/worst/p99',
    'RSS MB peak/after',
    'DB MB run/exit',
    'exit ms (code)',
    'load',
  ];
  const rows = results.flatMap((r) =>
    Object.entries(r.phases).map(([phase, p]) => [
      phase === 'main' ? r.name : `${r.name} ${phase}`,
      String(p.requests),
      `${p.latencyMs.min}/${p.latencyMs.median}/${p.latencyMs.max}`,
      fmt(p.statuses),
      fmt(p.errorCodes),
      `${p.cut}${p.cutExpected ? ' (meant)' : ''}`,
      `${r.probes.health.count}/${r.probes.health.worstMs}/${r.probes.health.p99Ms}`,
      `${r.probes.typename.count}/${r.probes.typename.worstMs}/${r.probes.typename.p99Ms}`,
      `${r.peakRssMb}/${r.rssAfterMb ?? '-'}`,
      `${mb(r.dbBytes)}/${mb(r.dbBytesAfterExit)}`,
      r.exit.died
        ? `died ${r.exit.signal ?? r.exit.code}`
        : `${r.exit.ms} (${r.exit.code ?? r.exit.signal})${r.exit.sigtermDuringAttack ? ' mid-attack' : ''}`,
      r.loadavg1.map((l) => l.toFixed(1)).join('/'),
    ]),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  for (const row of [head, ...rows]) console.log(row.map((c, i) => c.padEnd(widths[i])).join(' | '));
  for (const r of results) {
    for (const [phase, p] of Object.entries(r.phases))
      if (p.errorSample) console.log(`  ${r.name} ${phase}: ${p.errorSample}`);
    if (Object.keys(r.notes).length > 0) console.log(`  ${r.name} notes: ${JSON.stringify(r.notes)}`);
  }
  console.log(
    `\ngoals: worst /health <= ${GOALS.worstHealthMs} ms (aim ${GOALS.aimHealthMs}), peak RSS <= ${GOALS.peakRssMb} MB, no 5xx but 503 with Retry-After, no reset, no cut body, exit within SHUTDOWN_TIMEOUT_MS, <= ${GOALS.dbBytesPerCachedResult} DB bytes per cached 64 x 64 result`,
  );
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  for (const r of results) {
    const g = r.goals;
    const d = g.dbBytesPerCachedResult;
    const db = d ? `, DB/result ${d.value ?? '-'} B over ${d.cached} results ${mark(d.ok)}` : '';
    const exit = `exit ${g.shutdownInTime.value ?? '-'}/${g.shutdownInTime.max} ms ${mark(g.shutdownInTime.ok)}`;
    console.log(
      `  ${r.name.padEnd(22)} /health ${g.worstHealthMs.value} ms ${mark(g.worstHealthMs.ok)}, RSS ${g.peakRssMb.value} MB ${mark(g.peakRssMb.ok)}, 5xx+reset ${g.no5xxNoReset.value} ${mark(g.no5xxNoReset.ok)}, cut ${g.noCutBody.value} ${mark(g.noCutBody.ok)}, ${exit}${db}`,
    );
  }
}
