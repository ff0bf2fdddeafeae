/**
 * Sending the playground's HTML page (a few KB: its script, style and workers are files of their
 * own, `playground-route.ts`): compressed once with gzip, tagged with a content hash, and answered
 * `no-cache`, so a new build's page (naming new files) is seen at once, and a client that kept the
 * page gets a bare 304 while it is the same. (A browser keeps it only until the playground POSTs to
 * /graphql, which makes it drop its copy of that URL: it then gets the page again, about 1 KB.)
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { appendVary } from './replies.js';

const gzipAsync = promisify(gzip);

/** A page with its tag and its compressed form. */
interface CompressedPage {
  html: string;
  etag: string;
  gzipped: Promise<Buffer>;
}

/** A sender that keeps the compressed form of the last page it sent. */
export function htmlPageSender() {
  let page: CompressedPage | undefined;
  const pageFor = (html: string): CompressedPage => {
    if (page?.html !== html) {
      const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
      page = { html, etag, gzipped: gzipAsync(Buffer.from(html), { level: 9 }) };
    }
    return page;
  };

  return async (req: IncomingMessage, res: ServerResponse, status: number, html: string): Promise<void> => {
    const compressed = pageFor(html);
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      etag: compressed.etag,
      // CORS may have named Origin already: a list of origins makes the page vary by it too.
      vary: appendVary(res.getHeader('vary'), 'Accept', 'Accept-Encoding'),
    };
    if (req.headers['if-none-match'] === compressed.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      const body = await compressed.gzipped;
      res.writeHead(status, { ...headers, 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
      return;
    }
    res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(html) });
    res.end(html);
  };
}
