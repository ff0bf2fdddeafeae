/**
 * A GraphQL POST over `node:http` that reports exactly how it ended, for the shutdown tests: a
 * whole answer (status, headers, body, and whether the body parsed), or the socket error and
 * whether it came before or after the status line (an answer cut mid-body). `fetch` folds these
 * into one TypeError, and retries nothing, but says neither.
 */
import { type Agent, request } from 'node:http';

/** How one request ended. */
export type RawOutcome =
  | { kind: 'answer'; status: number; retryAfter: string | undefined; text: string; json: any }
  | { kind: 'error'; code: string; midBody: boolean; reused: boolean };

export interface RawPostOptions {
  /** `false`: a connection of its own, closed after the answer (the default); else this agent's. */
  agent?: Agent | false;
  /** Called once the request and its body have been handed to the socket. */
  onSent?: () => void;
  /**
   * Called at the first chunk of the answer's body: reading stops (the server's writes back up)
   * until the promise it returns settles. A client that reads slowly.
   */
  hold?: () => Promise<void>;
}

/** POSTs `body` (JSON) to `url`; never rejects. */
export function rawPost(url: string, body: unknown, options: RawPostOptions = {}): Promise<RawOutcome> {
  return new Promise((resolve) => {
    let started = false;
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' }, agent: options.agent ?? false },
      (res) => {
        started = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          if (chunks.length === 0 && options.hold) {
            res.pause();
            void options.hold().finally(() => res.resume());
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          if (!res.complete) return; // 'aborted' / 'error' report it
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          const retryAfter = res.headers['retry-after'];
          resolve({ kind: 'answer', status: res.statusCode ?? 0, retryAfter, text, json });
        });
        res.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ kind: 'error', code: err.code ?? err.message, midBody: true, reused: req.reusedSocket }),
        );
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ kind: 'error', code: err.code ?? err.message, midBody: started, reused: req.reusedSocket }),
    );
    req.on('finish', () => options.onSent?.());
    req.end(JSON.stringify(body));
  });
}

/** A short description of an outcome, for assertion messages and figures. */
export function describeOutcome(outcome: RawOutcome): string {
  if (outcome.kind === 'error') return `${outcome.midBody ? 'cut mid-body' : 'error'} ${outcome.code}`;
  const code = outcome.json?.errors?.[0]?.extensions?.code;
  return `${outcome.status}${code ? ` ${code}` : ''}`;
}
