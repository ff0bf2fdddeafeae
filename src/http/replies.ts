/**
 * Small JSON replies the HTTP layer writes itself (health, refusals before GraphQL runs). Errors
 * take the GraphQL response shape, `{ errors: [{ message, extensions: { code } }] }`, so a client
 * reads every refusal the same way whichever layer sent it.
 */
import type { ServerResponse } from 'node:http';
import type { ErrorCode } from '../errors.js';

/** Sends `body` as JSON with `status`. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Sends one error in the GraphQL response shape, with more `extensions` when given (a limit's name and value); never kept by a cache. */
export function sendError(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
  extensions: Record<string, unknown> = {},
): void {
  sendJson(
    res,
    status,
    { errors: [{ message, extensions: { code, ...extensions } }] },
    { 'cache-control': 'no-store', ...headers },
  );
}

/** A `Vary` header value: what `current` names (CORS's `Origin`, say), then each of `added` once. */
export function appendVary(current: number | string | string[] | undefined, ...added: string[]): string {
  const names = String(current ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  for (const name of added) if (!names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name);
  return names.join(', ');
}
