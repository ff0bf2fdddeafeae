/**
 * The client address of the rate limit: the TCP peer by default, whatever X-Forwarded-For says
 * (a client can forge it); behind TRUST_PROXY_HOPS proxies of our own, the entry they vouch for.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../src/http/client-address.js';

const request = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  it('is the TCP peer without trusted proxies, forged headers ignored', () => {
    expect(clientAddress(request('10.0.0.5'), 0)).toBe('10.0.0.5');
    expect(clientAddress(request('10.0.0.5', '1.2.3.4'), 0)).toBe('10.0.0.5');
  });

  it('behind one proxy is the address that proxy saw, not what the client claimed', () => {
    // nginx appends the address it saw to whatever the client sent.
    expect(clientAddress(request('10.0.0.2', '203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientAddress(request('10.0.0.2', '6.6.6.6, 203.0.113.7'), 1)).toBe('203.0.113.7');
  });

  it('behind two proxies skips the inner one', () => {
    expect(clientAddress(request('10.0.0.2', '6.6.6.6, 203.0.113.7, 10.0.0.9'), 2)).toBe('203.0.113.7');
  });

  it('falls back to the peer when a trusted proxy sent no header', () => {
    expect(clientAddress(request('10.0.0.2'), 1)).toBe('10.0.0.2');
  });
});
