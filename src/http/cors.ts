/**
 * CORS: the response headers that let a browser page from another origin call the API. By
 * default (`*`) every origin may, as with the common GraphQL servers: the API uses no cookies
 * (edit tokens travel in the body), so credentials are never allowed and an open API gives a page
 * nothing it could not get with curl. A list of origins restricts it, and origins not listed get
 * no CORS headers at all (the browser then refuses the answer); no origins at all, none.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers a browser may send on a cross-origin GraphQL request (`idempotency-key` makes a save safe to retry). */
const ALLOWED_HEADERS =
  'content-type, apollo-require-preflight, x-apollo-operation-name, authorization, idempotency-key';
/** Response headers a page may read beyond the safelisted ones: when to ask again after 429 or 503. */
const EXPOSED_HEADERS = 'retry-after';
/**
 * How long a browser may keep a preflight's answer, s: a day (Firefox keeps it that long; Chromium
 * caps it at two hours), so a page's POSTs do not each cost a preflight.
 */
const PREFLIGHT_MAX_AGE = '86400';

/**
 * A function that adds CORS headers to `res` when `req` comes from an allowed origin. Answers
 * may be kept by shared caches (GET path answers are public for a year), so they must not depend
 * on the Origin in a way a cache cannot see: with `*` every answer allows every origin, and with a
 * list every answer says `Vary: Origin`, whether or not this request had one.
 */
export function corsFor(origins: readonly string[]): (req: IncomingMessage, res: ServerResponse) => void {
  const all = origins.includes('*');
  const allowed = new Set(origins);
  return (req, res) => {
    if (origins.length === 0) return;
    if (!all) res.setHeader('vary', 'Origin');
    const origin = req.headers.origin;
    if (!all && (!origin || !allowed.has(origin))) return;
    res.setHeader('access-control-allow-origin', all ? '*' : (origin as string));
    res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
    res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
    res.setHeader('access-control-max-age', PREFLIGHT_MAX_AGE);
  };
}
