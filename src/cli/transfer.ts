/**
 * `chess-paths export` and `chess-paths import`: saved analyses (and, with `--cache`, the result
 * cache) out of one database and into another, as JSON Lines (the format and its checks are in
 * src/store/transfer/format.ts; what an import checks in each row's content, in ./import-checks.ts).
 * The database is `--database URL`, else `DATABASE_URL`, read with the server's own configuration
 * (src/config.ts), as are the budgets an import checks
 * (`MAX_ANALYSIS_BYTES`, `ANALYSES_MAX_BYTES`) and how long it waits for a lock
 * (`DATABASE_BUSY_TIMEOUT_MS`). The store's modules are loaded only when a command runs, so
 * `solve` stays light.
 *
 * An export to `--out FILE` is written to `FILE.partial-<pid>` and renamed when whole, so a
 * failed export never leaves a file that looks like a backup; through a symbolic link, a FIFO or
 * a device (`/dev/stdout`) it is written in place. An import from standard input is
 * first copied to a temporary file: the import reads its file twice (check, then write), and a
 * file that changed in between is refused.
 * Exit codes as for `solve`: 0 done, 1 a refused file, a database that cannot be used or output
 * that cannot be written (one line saying why and, for a file, which line), 2 usage.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, lstatSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { UsageError } from './help.js';

/** Where the commands write their one-line reports. */
export interface TransferOutput {
  out(text: string): void;
  err(text: string): void;
}

/** What `export` was asked. */
export interface ExportRequest {
  /** The database URL (`--database`), else DATABASE_URL. */
  database?: string;
  /** A file to write (`--out`), else standard output. */
  out?: string;
  /** Also the result cache (`--cache`). */
  cache: boolean;
}

/** What `import` was asked. */
export interface ImportRequest {
  database?: string;
  /** A path, or `-` for standard input (the default). */
  file: string;
}

/** Parses `export`'s arguments; throws `UsageError` (exit 2). */
export function parseExportArgs(args: string[]): ExportRequest {
  const { values } = parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: { database: { type: 'string' }, out: { type: 'string', short: 'o' }, cache: { type: 'boolean' } },
  });
  if (values.out === '') throw new UsageError('--out needs a file name', 'export');
  return { database: values.database, out: values.out, cache: values.cache === true };
}

/** Parses `import`'s arguments; throws `UsageError` (exit 2). */
export function parseImportArgs(args: string[]): ImportRequest {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { database: { type: 'string' } },
  });
  if (positionals.length > 1) throw new UsageError('one FILE at a time', 'import');
  return { database: values.database, file: positionals[0] ?? '-' };
}

/** A problem the user can act on: reported in one line, exit 1 (a bug's stack is still printed). */
function isOperational(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const bug =
    error instanceof TypeError ||
    error instanceof ReferenceError ||
    error instanceof RangeError ||
    error instanceof SyntaxError;
  return !bug;
}

/**
 * The message of an operational error on one line: the store words its refusals so, but an
 * error from elsewhere (Prisma's, when opening the database) may span several, with blank ones.
 */
function messageOf(error: Error): string {
  return error.message.trim().replace(/\s*\n\s*/g, ' ');
}

/** `1 analysis`, `2 analyses`. */
function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The configuration the server would run with, `--database` overriding DATABASE_URL (and named when it is wrong). */
function configFor(database: string | undefined, env: NodeJS.ProcessEnv): Config {
  if (database === undefined) return loadConfig(env);
  try {
    return loadConfig({ ...env, DATABASE_URL: database });
  } catch (error) {
    if (error instanceof ConfigError && error.message.startsWith('DATABASE_URL='))
      throw new ConfigError(`--database ${error.message.slice('DATABASE_URL='.length)}`);
    throw error;
  }
}

/** Runs `work`, turning refusals and database errors into one line on stderr and exit 1. */
async function guarded(command: string, io: TransferOutput, work: () => Promise<void>): Promise<number> {
  try {
    await work();
    return 0;
  } catch (error) {
    if (error instanceof ConfigError || isOperational(error)) {
      io.err(`chess-paths ${command}: ${messageOf(error as Error)}\n`);
      return 1;
    }
    throw error;
  }
}

/** Waits until `stream` has flushed everything and closed; rejects on its error. */
async function finish(stream: Writable): Promise<void> {
  stream.end();
  await once(stream, 'close');
}

/**
 * Whether an export to `out` is written straight into it rather than beside it and renamed over
 * it when whole: through a symbolic link (which the kernel then follows, with its protections:
 * the link stays, the file it names is written) and into anything not a regular file (a FIFO, a
 * device such as /dev/stdout), as a shell's `>` would, never replacing it with a file.
 */
function writesInPlace(out: string): boolean {
  const found = lstatSync(out, { throwIfNoEntry: false });
  return found !== undefined && (found.isSymbolicLink() || !found.isFile());
}

/** `chess-paths export`. */
export async function exportCommand(
  request: ExportRequest,
  io: TransferOutput,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  return guarded('export', io, async () => {
    const config = configFor(request.database, env);
    const { exportStore, openTransferDatabase } = await import('../store/index.js');
    const db = await openTransferDatabase(config.databaseUrl, {
      busyTimeoutMs: config.databaseBusyTimeoutMs,
      create: false,
    });
    const out = request.out;
    let partial: string | undefined;
    try {
      let counts: { analyses: number; cachedResults: number };
      if (out === undefined) {
        counts = await exportStore(db, process.stdout, { cache: request.cache });
      } else {
        partial = writesInPlace(out) ? undefined : `${out}.partial-${process.pid}`;
        const file = createWriteStream(partial ?? out, { flags: partial ? 'wx' : 'w' });
        let failure: Error | undefined;
        file.on('error', (error) => {
          failure ??= error;
        });
        try {
          await once(file, 'open');
        } catch (error) {
          throw new Error(`cannot write ${request.out}: ${(error as Error).message}`);
        }
        try {
          counts = await exportStore(db, file, { cache: request.cache });
          await finish(file);
        } catch (error) {
          file.destroy();
          throw failure ?? error;
        }
        if (failure) throw failure;
        if (partial !== undefined) renameSync(partial, out);
      }
      const cache = request.cache ? ` and ${counts.cachedResults} cached results` : '';
      io.err(
        `exported ${counts.analyses} analyses${cache} from ${db.where}${request.out ? ` to ${request.out}` : ''}\n`,
      );
    } finally {
      if (partial !== undefined) rmSync(partial, { force: true });
      await db.close();
    }
  });
}

/** Copies standard input to a file of its own (the import reads its file twice). */
async function spool(input: Readable): Promise<{ file: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-import-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const file = join(dir, 'import.jsonl');
  try {
    await pipeline(input, createWriteStream(file));
  } catch (error) {
    cleanup();
    throw error;
  }
  return { file, cleanup };
}

/** `chess-paths import`. */
export async function importCommand(
  request: ImportRequest,
  io: TransferOutput,
  env: NodeJS.ProcessEnv = process.env,
  stdin: Readable = process.stdin,
): Promise<number> {
  return guarded('import', io, async () => {
    const config = configFor(request.database, env);
    const { TransferError } = await import('../store/index.js');
    let source: { file: string; cleanup: () => void };
    if (request.file === '-') {
      source = await spool(stdin);
    } else {
      try {
        if (!statSync(request.file).isFile()) throw new TransferError(`${request.file} is not a file`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new TransferError(`${request.file} does not exist`);
        }
        throw error;
      }
      source = { file: request.file, cleanup: () => undefined };
    }
    try {
      const { checkExportFile, dialectOf, importStore, openTransferDatabase } = await import('../store/index.js');
      const { importChecks } = await import('./import-checks.js');
      const limits = {
        maxAnalysisBytes: config.maxAnalysisBytes,
        maxAnalysesBytes: config.analysesMaxBytes,
        noNul: dialectOf(config.databaseUrl) === 'postgresql',
      };
      const open = () => createReadStream(source.file);
      // Read twice: the rows written are the rows checked only if the file did not change between.
      const read = statSync(source.file);
      const unchanged = () => {
        const now = statSync(source.file, { throwIfNoEntry: false });
        if (!now || now.ino !== read.ino || now.size !== read.size || now.mtimeMs !== read.mtimeMs)
          throw new TransferError(`${request.file} changed while it was being imported; nothing was imported`);
      };
      // A damaged file, or one holding what the service would not have saved, is refused before
      // the database is even opened (or created).
      await checkExportFile(open(), limits, importChecks(config.limits));
      const db = await openTransferDatabase(config.databaseUrl, {
        busyTimeoutMs: config.databaseBusyTimeoutMs,
        create: true,
      });
      let imported = false;
      try {
        const { analyses, cachedResults } = await importStore(db, open, limits, {
          checked: true,
          beforeCommit: unchanged,
        });
        imported = true;
        const cache =
          cachedResults.added + cachedResults.unchanged > 0
            ? `; ${counted(cachedResults.added, 'cached result', 'cached results')} added, ${cachedResults.unchanged} already there`
            : '';
        io.out(
          `imported into ${db.where}: ${counted(analyses.added, 'analysis', 'analyses')} added, ${analyses.unchanged} already there and equal${cache}\n`,
        );
      } finally {
        await db.close();
        // A refused import writes nothing, not even a new SQLite file.
        if (!imported) db.discard();
      }
    } finally {
      source.cleanup();
    }
  });
}
