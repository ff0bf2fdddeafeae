/**
 * A server that cannot listen says which setting is wrong: a port in use is PORT's, a host that
 * does not resolve is HOST's, each a `ConfigError` (one line and exit status 2 from `main`).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { listenError } from '../../src/http/listen-error.js';
import { startTestServer } from '../support/test-server.js';

describe('listening', () => {
  it('refuses a port in use as a PORT error', async () => {
    const first = await startTestServer({ database: false });
    try {
      const port = new URL(first.url).port;
      const second = startTestServer({ database: false, env: { PORT: port, HOST: '127.0.0.1' } });
      await expect(second).rejects.toThrow(
        new ConfigError(`PORT=${port}: 127.0.0.1:${port} is already in use (another server listens there)`),
      );
    } finally {
      await first.close();
    }
  });

  it('names HOST for an address that does not resolve or is not this machine’s, and passes anything else on', () => {
    const config = { host: 'bad.invalid', port: 4000 } as Parameters<typeof listenError>[1];
    const error = (code: string) => Object.assign(new Error(code), { code });
    expect(listenError(error('ENOTFOUND'), config)).toEqual(
      new ConfigError('HOST="bad.invalid" is neither an address nor a name this machine resolves'),
    );
    expect(listenError(error('EADDRNOTAVAIL'), { ...config, host: '10.9.9.9' })).toEqual(
      new ConfigError('HOST=10.9.9.9 is not an address of this machine'),
    );
    expect(listenError(error('EACCES'), { ...config, port: 80 }).message).toMatch(/^PORT=80: not allowed/);
    const other = error('EMFILE');
    expect(listenError(other, config)).toBe(other);
  });
});
