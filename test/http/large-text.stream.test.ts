/**
 * `streamText`: a body written a piece at a time as the client takes it. A client that reads gets
 * every byte (Content-Length right, characters of every width whole across the pieces); a client
 * that stops reading is disconnected once it has taken nothing for `stallMs`, so it holds the
 * answer no longer than that; a client that leaves stops the writing.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { streamText } from '../../src/http/large-text.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server answering every request with `text` through `streamText`; resolves with its port and the responses' outcomes. */
async function serve(text: string, stallMs: number) {
  const outcomes: Promise<'finished' | 'closed'>[] = [];
  server = createServer((_req, res: ServerResponse) => {
    outcomes.push(
      new Promise((resolve) => {
        res.once('finish', () => resolve('finished'));
        res.once('close', () => resolve(res.writableFinished ? 'finished' : 'closed'));
      }),
    );
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    void streamText(res, text, stallMs);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server!.address() as AddressInfo).port, outcomes };
}

describe('streamText', () => {
  it('sends every byte to a client that reads, characters of every width whole', async () => {
    // Pieces are 65,536 characters: put multi-byte characters and surrogate pairs across the cuts.
    const unit = `${'a'.repeat(65_535)}😀é${'€'.repeat(1000)}`;
    const text = unit.repeat(5);
    const { port } = await serve(text, 5000);
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(await res.text()).toBe(text);
  });

  it('disconnects a client that stops reading, once it has taken nothing for stallMs', async () => {
    // Far more than the socket buffers of both ends hold, so the writer must wait for the client.
    const text = 'x'.repeat(64 * 1024 * 1024);
    const { port, outcomes } = await serve(text, 200);
    const socket = connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause(); // never reads
    await expect.poll(() => outcomes.length).toBe(1);
    expect(await outcomes[0]).toBe('closed');
    // What was sent before the drop still reaches the client, then the connection ends short.
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
    expect(received).toBeLessThan(Buffer.byteLength(text));
  });

  it('stops writing when the client leaves', async () => {
    const text = 'y'.repeat(64 * 1024 * 1024);
    const { port, outcomes } = await serve(text, 60_000);
    const socket = connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    socket.destroy();
    await expect.poll(() => outcomes.length).toBe(1);
    // Well before the 60 s stall limit: the writer saw the close, not a timeout.
    expect(await outcomes[0]).toBe('closed');
  });
});
