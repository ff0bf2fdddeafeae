/**
 * Structured logs with pino: JSON lines on stdout, one logger per server, level from LOG_LEVEL.
 * Request logs are at `debug` so the hot path costs nothing at the default `info` level.
 */
import { type Logger, pino } from 'pino';

/** A pino logger named after the service. */
export function createLogger(level: string): Logger {
  return pino({
    name: 'chess-paths',
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
