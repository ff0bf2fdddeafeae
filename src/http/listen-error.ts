/**
 * Why the HTTP server could not listen, as the setting that caused it: a port already in use or
 * not allowed is PORT's, an address that does not resolve or is not this machine's is HOST's. The
 * server reports it as a configuration error, one line and exit status 2, like a value that does
 * not parse.
 */
import { type Config, ConfigError } from '../config.js';

/** A failure to listen as the setting that caused it (HOST or PORT), else as it is. */
export function listenError(err: NodeJS.ErrnoException, config: Config): Error {
  const where = `${config.host}:${config.port}`;
  switch (err.code) {
    case 'EADDRINUSE':
      return new ConfigError(`PORT=${config.port}: ${where} is already in use (another server listens there)`);
    case 'EACCES':
      return new ConfigError(
        `PORT=${config.port}: not allowed to listen on ${where} (ports below 1024 need privileges)`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ConfigError(
        `HOST=${JSON.stringify(config.host)} is neither an address nor a name this machine resolves`,
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(`HOST=${config.host} is not an address of this machine`);
    default:
      return err;
  }
}
