/**
 * The client's address, for the per-client mutation rate limit. Without proxies it is the TCP
 * peer. Behind proxies (a load balancer in front of several replicas, a CDN) the peer is the last
 * proxy, shared by every client, so the address is read from `X-Forwarded-For`, which each proxy
 * extends with the address it received the request from. Only the entries added by proxies of
 * our own can be trusted (a client can send any `X-Forwarded-For` it likes): with TRUST_PROXY_HOPS
 * proxies in front, the client is the entry that many places from the right, counting the peer.
 */
import type { IncomingMessage } from 'node:http';

/** The address of the client of `req`, trusting `hops` proxies in front (0: the TCP peer). */
export function clientAddress(req: IncomingMessage, hops: number): string | undefined {
  const peer = req.socket.remoteAddress;
  if (hops <= 0) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  // The chain as the last proxy saw it: [client, proxy 1, ..., proxy hops-1] + the peer.
  const chain = [...forwarded, peer ?? ''];
  return chain[Math.max(0, chain.length - 1 - hops)] || peer;
}
