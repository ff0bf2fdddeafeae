/**
 * Sending a large, rarely changing HTML page (the playground, about 9 MB): compressed once with
 * gzip at the highest level, tagged with a content hash, and answered with 304 when the browser
 * already holds it.
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
      'cache-control': 'public, max-age=300',
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
