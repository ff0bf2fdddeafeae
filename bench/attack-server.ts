/**
 * The server under attack, for `bench/attack.ts`: built first when dist/ is older than src/,
 * started fresh for each attack (a child process on 127.0.0.1, production mode, a throw-away
 * SQLite database, the default limits unless the attack sets some), stopped with SIGTERM, and
 * read from outside: its memory and open sockets from /proc, its database files' size and cache
 * rows, its CPU time. Kept apart from the attacks so that attack.ts, attack-doors.ts and the HTTP
 * benchmarks share one road.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import type { Agent } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Phase } from './attack-report.js';
import { freePort } from './questions.js';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const serverPath = resolve(process.env.ATTACK_SERVER ?? join(root, 'dist', 'server.js'));
export const serverRoot = resolve(dirname(serverPath), '..');
/** Variables of the bench's own environment that never reach the server: only an attack sets them. */
const ENV_OVERRIDES =
  /^(MAX_|RATE_LIMIT_|ENGINE_BUDGET|SHUTDOWN_|SEND_STALL_MS|CACHE_|RESULT_MEMO|RESPONSE_CACHE|DATABASE_|PLAYGROUND|INTROSPECTION|[A-Z_]+_CACHE_BYTES|PREPARED_QUERY_BYTES)/;
/** The server's shutdown time when an attack does not set SHUTDOWN_TIMEOUT_MS (its default). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

export function ensureBuilt(): void {
  if (process.env.ATTACK_SERVER) {
    if (!existsSync(serverPath)) throw new Error(`ATTACK_SERVER=${serverPath} does not exist`);
    return;
  }
  if (process.env.ATTACK_SKIP_BUILD === '1' && existsSync(serverPath)) return;
  if (existsSync(serverPath) && newestMtime(join(root, 'src')) <= newestMtime(join(root, 'dist'))) return;
  console.log('dist/ is missing or older than src/: npm run build');
  const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) throw new Error('npm run build failed (build another commit elsewhere and set ATTACK_SERVER)');
}

export interface Server {
  url: string;
  port: number;
  child: ChildProcess;
  dir: string;
  db: string;
  /** What the attack set on top of the defaults (e.g. MAX_BOARD_SIDE). */
  env: Record<string, string>;
  log: { lines: number; samples: string[] };
  exited: Promise<{ code: number | null; signal: string | null }>;
}

/**
 * Starts the built server (`path`, this checkout's or ATTACK_SERVER's unless given, run in its
 * own checkout) with `env` on top of production defaults; resolves once `/health` is 200.
 */
export async function startServer(env: Record<string, string> = {}, path = serverPath): Promise<Server> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-attack-'));
  const db = join(dir, 'attack.db');
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !ENV_OVERRIDES.test(k)));
  // Node flags for the server (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, not allowed in NODE_OPTIONS).
  const nodeArgs = (process.env.ATTACK_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path], {
    cwd: resolve(dirname(path), '..'),
    env: {
      ...inherited,
      ...env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${db}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = { lines: 0, samples: [] as string[] };
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n').filter(Boolean)) {
        log.lines++;
        if (log.samples.length < 5) log.samples.push(line.slice(0, 300));
      }
    });
  }
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${log.samples.join('\n')}`);
    if (
      (await fetch(`${url}/health`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      return { url, port, child, dir, db, env, log, exited };
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error('the server did not become healthy within 30 s');
}

export type Exit = { ms: number | null; code: number | null; signal: string | null; died: boolean };

/** SIGTERM (SIGKILL after 30 s); resolves with the time to exit, null when it had died already. */
export async function stopServer(server: Server): Promise<Exit> {
  const started = performance.now();
  const died = server.child.exitCode !== null || server.child.signalCode !== null;
  if (!died) server.child.kill('SIGTERM');
  const killer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  const exit = await server.exited;
  clearTimeout(killer);
  return { ms: died ? null : Math.round(performance.now() - started), ...exit, died };
}

/** The server's SHUTDOWN_TIMEOUT_MS in this attack. */
export const shutdownTimeoutMs = (server: Server) =>
  Number(server.env.SHUTDOWN_TIMEOUT_MS ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);

/** CPU time a process has used, user and system, all threads, in µs (from /proc; undefined elsewhere). */
export function processCpuUs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat(5), counted from the state (field 3) here.
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

/** VmRSS and VmHWM of `pid` in kB (0 once it has exited). */
export const memoryKb = (pid: number): { rss: number; hwm: number } => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
};

/**
 * The client ports (of connections from 127.0.0.1 to `serverPort`) whose connection the process
 * `pid` has let go: the server's end of it is no longer one of its open file descriptors, and is
 * no longer ESTABLISHED (which it also is, without a descriptor, while it waits to be accepted).
 * Read from /proc/net/tcp, whose sockets carry inodes, and /proc/<pid>/fd; null once the process
 * has exited.
 */
export function releasedClientPorts(pid: number, serverPort: number, clientPorts: number[]): Set<number> | null {
  const hex = (port: number) => `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const local = hex(serverPort);
  const wanted = new Map(clientPorts.map((port) => [hex(port), port]));
  const established = new Set<number>();
  const byInode = new Map<string, number>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    const port = wanted.get(f[2]);
    if (f[1] !== local || port === undefined) continue;
    if (f[3] === '01') established.add(port);
    if (f[9] !== '0') byInode.set(`socket:[${f[9]}]`, port);
  }
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return null;
  }
  const held = new Set<number>();
  for (const fd of fds) {
    try {
      const port = byInode.get(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (port !== undefined) held.add(port);
    } catch {
      // closed while listed
    }
  }
  return new Set(clientPorts.filter((port) => !held.has(port) && !established.has(port)));
}

export const dbBytes = (db: string) =>
  ['', '-wal', '-shm'].reduce((sum, suffix) => sum + (existsSync(db + suffix) ? statSync(db + suffix).size : 0), 0);

/** Rows of the result cache table, read after the server exited (null when that cannot be read). */
export function cacheRows(db: string): number | null {
  try {
    const Database = createRequire(join(serverRoot, 'package.json'))('better-sqlite3');
    const conn = new Database(db, { readonly: true });
    try {
      return (conn.prepare('SELECT COUNT(*) AS n FROM CachedResult').get() as { n: number }).n;
    } finally {
      conn.close();
    }
  } catch {
    return null;
  }
}

/** What an attack gets: its server, one keep-alive agent per client, and a place for notes. */
export interface Ctx {
  server: Server;
  agents: Agent[];
  /** Whole-request time limit, ms. */
  timeoutMs: number;
  notes: Record<string, unknown>;
  /** Set by an attack that stops the server itself. */
  exit?: Exit;
}

/** One attack: what it sets in the server's environment (on top of the defaults), and what it sends. */
export interface Attack {
  env?: Record<string, string>;
  run: (ctx: Ctx) => Promise<Record<string, Phase>>;
}
