/**
 * Chromium driven over its DevTools pipe (`--remote-debugging-pipe`) with nothing but the
 * commands a bench sends: for measuring a page as a visitor's browser runs it.
 *
 * Playwright enables the DevTools `Runtime` domain in every page it drives, and with it on, V8
 * captures a full stack trace, with line and column, wherever Blink records where a script was
 * (a deprecation report, a console message, an exception): each function on that stack needs its
 * source positions, which code from V8's code cache does not carry, so V8 parses the function
 * again. For GraphiQL's 5 MB bundle, one function wrapping all of it, that is the whole script
 * parsed twice more on every visit that starts from compiled code (0.3 to 1 s here, seen in
 * Chromium traces as `V8.CollectSourcePositions`), which a visitor's browser never does. Here
 * `Runtime` is never enabled: pages are read with `Runtime.evaluate` alone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export interface PipeBrowser {
  /** Sends a command (to a page when `sessionId` is given); resolves with its result. */
  send(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<Record<string, unknown>>;
  /** Evaluates `expression` in the page; resolves with its value (undefined when it failed, e.g. mid-navigation). */
  evaluate<T>(sessionId: string, expression: string, awaitPromise?: boolean): Promise<T | undefined>;
  /** Opens a tab on about:blank at `viewport`; resolves with its target and session. */
  newTab(viewport: { width: number; height: number }): Promise<{ targetId: string; sessionId: string }>;
  close(): Promise<void>;
}

/** Launches `executable` with `args` and a profile at `profile`, driven over the pipe. */
export async function launchOverPipe(executable: string, args: string[], profile: string): Promise<PipeBrowser> {
  const child: ChildProcess = spawn(
    executable,
    [...args, '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let buffered = '';
  fromBrowser.setEncoding('utf8').on('data', (text: string) => {
    buffered += text;
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      const waiting = message.id === undefined ? undefined : pending.get(message.id);
      if (!waiting) continue;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${message.error.message} (${message.error.code})`));
      else waiting.resolve(message.result);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const waiting of pending.values()) waiting.reject(new Error('Chromium exited'));
    pending.clear();
  });

  const send: PipeBrowser['send'] = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });

  return {
    send,
    async evaluate<T>(sessionId: string, expression: string, awaitPromise = false) {
      try {
        const reply = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise }, sessionId);
        if (reply.exceptionDetails) return undefined;
        return (reply.result as { value?: T }).value;
      } catch {
        return undefined;
      }
    },
    async newTab(viewport) {
      const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
      const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
      await send('Page.enable', {}, sessionId);
      await send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false }, sessionId);
      return { targetId, sessionId };
    },
    async close() {
      await send('Browser.close').catch(() => {});
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
