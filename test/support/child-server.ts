/**
 * The real entry point started as a child process, for tests that must survive what the server
 * does to itself (a crash, an out-of-memory abort, a hang) or that kill it (SIGKILL): the test
 * runner keeps its own event loop and its own heap, so request timeouts still fire and a dead
 * server is seen as an exit code, not as a dead test worker.
 *
 * The child runs the built `dist/server.js` when it is current (built after the last change to
 * `src/`, as `npm test` leaves it: it builds first), else the TypeScript source through tsx
 * (`node --import tsx src/server.ts`), so a test run after an edit without a build still tests
 * the edit. The build starts in about half the time, and its worker threads need no tsx either.
 * `HARDENING_ENTRY=dist` or `source` forces one. The child binds port 0 (the kernel picks a free port, so no
 * other process can take it between a choice and the bind); its port is read from its "listening"
 * log line when LOG_LEVEL shows it, otherwise from /proc (the socket it listens on), so any
 * LOG_LEVEL works. Then `/health` is polled until it answers 200.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** How the child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A server running in a child process. */
export interface ChildServer {
  url: string;
  pid: number;
  child: ChildProcess;
  /** The last 256 KB of the child's stdout and stderr (pino JSON lines, crash reports). */
  log(): string;
  /** Resolves when the process has exited. */
  exited: Promise<ChildExit>;
  /** True while the process runs. */
  alive(): boolean;
  /** Peak resident set size so far (VmHWM from /proc), in kB; 0 when unavailable. */
  peakRssKb(): number;
  /** Sends a signal and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<ChildExit>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs?: number): Promise<ChildExit>;
}

export interface ChildOptions {
  /** Environment on top of the test's (LOG_LEVEL defaults to warn; PORT and HOST are always set here). */
  env?: Record<string, string>;
  /** Extra node options, e.g. `--max-old-space-size=512`. */
  nodeArgs?: string[];
  /**
   * How long to wait for the port and a 200 from /health (default 120 s: a start takes about 2 s on
   * an idle machine and can take 30 s on a very busy one; this bounds only a start that hangs).
   */
  startTimeoutMs?: number;
}

const LOG_KEEP = 256 * 1024;
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Reads a /proc/<pid>/status field in kB (0 when the process is gone or /proc is missing). */
export function procStatusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Arguments of `node` that start the server: the build when it is current, else tsx on the source. */
export function serverArgs(): string[] {
  const built = join(ROOT, 'dist', 'server.js');
  const entry = process.env.HARDENING_ENTRY;
  if (entry === 'dist') {
    if (!existsSync(built)) throw new Error('HARDENING_ENTRY=dist but dist/server.js is missing: run npm run build');
    return [built];
  }
  if (entry !== 'source' && buildIsCurrent(built)) return [built];
  return ['--import', 'tsx', join(ROOT, 'src', 'server.ts')];
}

let current: boolean | undefined;
/** True when `built` exists and is newer than every file of `src/` (checked once a test file). */
function buildIsCurrent(built: string): boolean {
  if (current === undefined) {
    const builtAt = existsSync(built) ? statSync(built).mtimeMs : -1;
    const newest = (dir: string): number =>
      Math.max(
        0,
        ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
          entry.isDirectory() ? newest(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
        ),
      );
    current = builtAt >= newest(join(ROOT, 'src'));
  }
  return current;
}

/**
 * The TCP ports process `pid` listens on at 127.0.0.1, from /proc (Linux): the inodes of its
 * sockets (/proc/<pid>/fd) matched with the listening sockets of /proc/net/tcp. Undefined when
 * /proc cannot tell (not Linux, or the process is gone).
 */
export function listeningPorts(pid: number): number[] | undefined {
  const inodes = new Set<string>();
  let table: string;
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target = '';
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue; // closed meanwhile
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    }
    table = readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return undefined;
  }
  const ports: number[] = [];
  // sl local_address rem_address st ... inode: 127.0.0.1 is 0100007F, LISTEN is 0A.
  for (const line of table.split('\n').slice(1)) {
    const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
    if (state === '0A' && local?.startsWith('0100007F:') && inodes.has(inode))
      ports.push(Number.parseInt(local.slice(9), 16));
  }
  return ports;
}

/** The port the child listens on, once it does: from its "listening" log line, else from /proc. */
function childPort(pid: number, log: string): number | undefined {
  const line = log.split('\n').find((l) => l.includes('"msg":"chess-paths listening"'));
  const logged = line && /"url":"http:\/\/127\.0\.0\.1:(\d+)"/.exec(line);
  if (logged) return Number(logged[1]);
  const ports = listeningPorts(pid);
  if (ports === undefined && !existsSync('/proc/self/fd'))
    throw new Error('cannot tell which port the child listens on: no /proc here; set LOG_LEVEL=info for the child');
  return ports?.[0];
}

/** Starts the server in a child process and waits until /health is 200. */
export async function startChildServer(options: ChildOptions = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...serverArgs()], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      ...options.env,
      PORT: '0',
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let log = '';
  const append = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > LOG_KEEP) log = log.slice(-LOG_KEEP);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<ChildExit>((resolveExit) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolveExit({ code, signal });
    });
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (alive()) child.kill(signal);
    return exited;
  };
  const stop = async (graceMs = 10_000) => {
    if (!alive()) return exited;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };

  const timeoutMs = options.startTimeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  try {
    let port: number | undefined;
    for (;;) {
      port = childPort(child.pid!, log);
      if (port !== undefined) break;
      if (!alive()) throw new Error(`server exited while starting: ${log.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`no listening port within ${timeoutMs} ms: ${log.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const url = `http://127.0.0.1:${port}`;
    for (;;) {
      const status = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      if (!alive()) throw new Error(`server exited while starting: ${log.slice(-4000)}`);
      if (Date.now() > deadline)
        throw new Error(`/health was not 200 within ${timeoutMs} ms (last ${status}): ${log.slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return {
      url,
      pid: child.pid!,
      child,
      log: () => log,
      exited,
      alive,
      peakRssKb: () => procStatusKb(child.pid!, 'VmHWM'),
      kill,
      stop,
    };
  } catch (err) {
    await kill('SIGKILL');
    throw err;
  }
}
