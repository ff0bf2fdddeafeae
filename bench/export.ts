/**
 * `chess-paths export` and `import` at scale (`npm run bench:export`): synthetic analyses
 * (title, notes, two path questions and their keys: about 700 bytes each, as a real one) are
 * inserted straight into the table, on SQLite and on PostgreSQL, then exported by the built
 * command (`dist/cli/main.js`) in a child process of its own, and the file imported into an empty
 * database of the other kind. For each run: the wall time and the child's peak resident memory
 * (`process.resourceUsage().maxRSS`, read by the child at its end), at EXPORT_COUNTS analyses
 * (default 10,000 and 100,000): memory that stays flat while the count grows tenfold is the
 * bounded-memory claim. Figures are reported in docs/persistence.md; `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * The child: plain JavaScript (no tsx in its memory), the built command line's `run` on the
 * arguments in BENCH_EXPORT_ARGS, then one JSON line on stderr.
 */
const CHILD = `
const { run } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'cli', 'main.js')).href)});
let said = '';
const code = await run(JSON.parse(process.env.BENCH_EXPORT_ARGS), { out: (t) => (said += t), err: (t) => (said += t) });
process.stderr.write(JSON.stringify({ code, maxRssKiB: process.resourceUsage().maxRSS, said: said.trim() }) + '\\n');
process.exit(code ?? 0);
`;

const COUNTS = (process.env.EXPORT_COUNTS ?? '10000,100000').split(',').map(Number);
/** The V8 heap (old space) of the capped runs, MiB. */
const HEAP_CAP_MIB = Number(process.env.HEAP_CAP_MIB ?? 64);
const SERVER = (process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432').replace(/\/+$/, '');

/** `SERVER` with a database name. */
function postgresUrl(name: string): string {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl('postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs the command line in a child process; its time, peak memory and what it said. */
function child(args: string[], heapMiB?: number): Promise<{ ms: number; maxRssMiB: number; said: string }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const heap = heapMiB === undefined ? [] : [`--max-old-space-size=${heapMiB}`];
    const proc = spawn(process.execPath, [...heap, '--input-type=module', '-e', CHILD], {
      cwd: ROOT,
      env: { ...process.env, BENCH_EXPORT_ARGS: JSON.stringify(args), DATABASE_BUSY_TIMEOUT_MS: '5000' },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let stderr = '';
    proc.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    proc.on('error', fail);
    proc.on('close', () => {
      const ms = performance.now() - started;
      const last = stderr.trim().split('\n').at(-1) ?? '';
      try {
        const report = JSON.parse(last) as { code: number; maxRssKiB: number; said: string };
        if (report.code !== 0) throw new Error(report.said);
        done({ ms, maxRssMiB: report.maxRssKiB / 1024, said: report.said });
      } catch (error) {
        fail(new Error(`${args.join(' ')} failed: ${stderr}\n${(error as Error).message}`));
      }
    });
  });
}

/** Inserts `n` synthetic analyses straight into the (migrated) database at `url`. */
async function seed(url: string, n: number): Promise<void> {
  const { openTransferDatabase } = await import('../src/store/transfer/database.js');
  const { analysisBytes } = await import('../src/store/analysis-budget.js');
  const db = await openTransferDatabase(url, { busyTimeoutMs: 5000, create: true });
  try {
    const start = Date.UTC(2026, 0, 1);
    for (let done = 0; done < n; done += 1000) {
      const data = Array.from({ length: Math.min(1000, n - done) }, (_, k) => {
        const i = done + k;
        const queries = JSON.stringify([
          { piece: 'KNIGHT', from: ['a1'], to: ['h8'] },
          { piece: 'QUEEN', from: ['d1'], to: ['d8', 'h4'], board: { files: 10, ranks: 10 }, blocked: ['d4'] },
        ]);
        const resultKeys = JSON.stringify([
          createHash('sha256').update(`a${i}`).digest('hex'),
          createHash('sha256').update(`b${i}`).digest('hex'),
        ]);
        const text = {
          title: `Synthetic analysis ${i}`,
          notes: `${randomBytes(96).toString('base64')} notes of analysis ${i}`,
          fen: i % 2 === 0 ? 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1' : null,
          pgn: null,
          queries,
          resultKeys,
        };
        const at = new Date(start + i * 1000);
        return {
          id: randomUUID(),
          ...text,
          editTokenHash: createHash('sha256').update(randomBytes(32)).digest('hex'),
          createdAt: at,
          updatedAt: at,
          version: 1 + (i % 3),
          bytes: analysisBytes(text),
        };
      });
      await db.prisma.analysis.createMany({ data });
    }
  } finally {
    await db.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'chess-paths-bench-export-'));
const made: string[] = [];
const rows: string[] = [];
try {
  for (const n of COUNTS) {
    for (const [from, to] of [
      ['SQLite', 'PostgreSQL'],
      ['PostgreSQL', 'SQLite'],
    ] as const) {
      const name = (kind: string) => `chess_paths_bench_${kind}_${randomBytes(4).toString('hex')}`;
      const urlOf = async (kind: 'SQLite' | 'PostgreSQL') => {
        if (kind === 'SQLite') return `file:${join(dir, `${name('s')}.db`)}`;
        const db = name('p');
        await admin(`CREATE DATABASE "${db}"`);
        made.push(db);
        return postgresUrl(db);
      };
      const source = await urlOf(from);
      const target = await urlOf(to);
      await seed(source, n);
      const file = join(dir, `${n}-${from}.jsonl`);
      const exported = await child(['export', '--database', source, '--out', file]);
      const imported = await child(['import', '--database', target, file]);
      // Bounded memory, shown: the same export and import with V8's heap capped at HEAP_CAP_MIB
      // (a process whose live data grew with the file would die of it).
      const capped = await child(['export', '--database', source, '--out', `${file}.capped`], HEAP_CAP_MIB);
      const cappedImport = await child(['import', '--database', await urlOf(to), `${file}.capped`], HEAP_CAP_MIB);
      rmSync(`${file}.capped`, { force: true });
      const mib = statSync(file).size / 2 ** 20;
      rows.push(
        `| ${n.toLocaleString('en')} | ${from} -> ${to} | ${mib.toFixed(0)} MiB | ${(exported.ms / 1000).toFixed(1)} s | ${exported.maxRssMiB.toFixed(0)} MiB | ${capped.maxRssMiB.toFixed(0)} MiB | ${(imported.ms / 1000).toFixed(1)} s | ${imported.maxRssMiB.toFixed(0)} MiB | ${cappedImport.maxRssMiB.toFixed(0)} MiB |`,
      );
      console.log(rows.at(-1));
      rmSync(file, { force: true });
    }
  }
} finally {
  for (const db of made) await admin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `\n| analyses | move | file | export time | export peak RSS | same, heap capped at ${HEAP_CAP_MIB} MiB | import time | import peak RSS | same, heap capped |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
);
for (const row of rows) console.log(row);
console.log(`\nNode ${process.version}, ${process.platform} ${process.arch}`);
