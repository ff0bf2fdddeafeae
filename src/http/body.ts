/**
 * Reading request bodies within a byte limit. A body over the limit is refused as soon as its
 * declared or received length passes it; the rest of it is then read and thrown away (within
 * bounds) before the 413 goes out, because closing a connection while the client is still sending
 * makes the kernel reset it, and a client that has not read the answer yet would lose it.
 */
import type { IncomingMessage } from 'node:http';

/** A request body over the size limit. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** Most bytes of an over-long body read and thrown away so that its 413 reaches the client. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** Longest wait for the rest of an over-long body, ms. */
const MAX_DRAIN_MS = 10_000;

/** The whole body, or a `BodyTooLargeError` once it is over `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLargeError());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

/**
 * Reads and throws away the rest of a request body, up to `MAX_DRAIN_BYTES` and `MAX_DRAIN_MS`.
 * Resolves true when the body ended.
 */
export function drainBody(req: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    if (req.complete) {
      resolve(true);
      return;
    }
    let drained = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > MAX_DRAIN_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = () => finish(false);
    const timer = setTimeout(() => finish(false), MAX_DRAIN_MS);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.resume();
  });
}
