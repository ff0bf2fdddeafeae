/**
 * Large answers written a piece a turn: the pieces are exactly the text's UTF-8 (surrogate pairs
 * at the cuts included), their tag is the `etag` package's tag of the same text, other work runs
 * between pieces, and over HTTP the body and its Content-Length are the text's.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import etag from 'etag';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLargeText, LARGE_TEXT, piecesEtag, sendText, utf8Pieces } from '../../src/http/large-text.js';

/** A text of about `chars` code units: `unit` repeated, with `marks` put between its characters. */
function textOf(chars: number, unit: string, marks: string[], at: number[]): string {
  const parts = Array.from(unit.repeat(Math.ceil(chars / unit.length)));
  for (const [i, position] of at.entries()) parts.splice(position % parts.length, 0, marks[i % marks.length]);
  return parts.join('');
}

describe('utf8Pieces', () => {
  it('encodes any text, with pairs and multi-byte characters anywhere, as Buffer.from does', async () => {
    const marks = ['😀', 'é', '中', '\u{10ffff}', '"', '\n'];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3 * (1 << 18) + 7 }),
        fc.constantFrom('a', '😀', 'ab😀', 'é'),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (chars, unit, at) => {
          const text = textOf(chars, unit, marks, at);
          const pieces = await utf8Pieces(text);
          expect(Buffer.concat(pieces).equals(Buffer.from(text, 'utf8'))).toBe(true);
          expect(pieces.every((piece) => !piece.includes(Buffer.from('\ufffd')))).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('never cuts a surrogate pair, wherever the piece boundary falls', async () => {
    for (const shift of [0, 1, 2, 3]) {
      const text = `${'x'.repeat((1 << 18) - 2 + shift)}${'😀'.repeat(8)}${'y'.repeat(1 << 18)}`;
      const pieces = await utf8Pieces(text);
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.map((piece) => piece.toString('utf8')).join('')).toBe(text);
    }
  });

  it('lets other work run between pieces', async () => {
    const text = 'z'.repeat(8 * (1 << 18));
    let turns = 0;
    let running = true;
    const spin = () => {
      if (!running) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const pieces = await utf8Pieces(text);
    running = false;
    expect(pieces).toHaveLength(8);
    expect(turns).toBeGreaterThanOrEqual(pieces.length - 1);
  });
});

describe('piecesEtag', () => {
  it("is the etag package's tag of the prefix and the text", async () => {
    for (const text of ['', 'a', '{"data":1}', `${'é😀'.repeat(200_000)}"`]) {
      const prefix = 'application/graphql-response+json; charset=utf-8\n';
      expect(await piecesEtag(prefix, await utf8Pieces(text))).toBe(etag(prefix + text));
    }
  });
});

describe('sendText over HTTP', () => {
  it('sends small and large texts with their byte length, byte for byte', async () => {
    const texts = ['{"data":{}}', `{"data":"${'é😀a'.repeat(LARGE_TEXT / 2)}"}`];
    expect(texts.map(isLargeText)).toEqual([false, true]);
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      void sendText(res, texts[Number(req.url?.slice(1))]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (const [i, text] of texts.entries()) {
        const res = await fetch(`http://127.0.0.1:${port}/${i}`);
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
        expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
