/**
 * The availability circuit breaker on a fake clock: which errors mean the database is unavailable
 * (in the shapes Prisma's driver adapter and better-sqlite3 throw them), writes refused at once
 * while unavailable, one trial per retry interval, recovery on the first successful write, and
 * health earned only by a write that succeeded recently (a trial write otherwise).
 */
import { describe, expect, it } from 'vitest';
import { Availability, unavailableReason } from '../../src/store/availability.js';
import { DatabaseUnavailableError } from '../../src/store/errors.js';
import { recordingLogger } from '../support/store-fixtures.js';

/** An error shaped like Prisma's PrismaClientKnownRequestError around a driver-adapter error. */
function prismaError(originalCode: string, originalMessage: string) {
  return Object.assign(new Error('\nInvalid `prisma.analysis.create()` invocation in /x.ts:12:3\n...'), {
    code: 'P2039',
    meta: {
      driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode, originalMessage, kind: 'sqlite' } },
    },
  });
}

describe('unavailableReason', () => {
  it('reads SQLite codes through Prisma and better-sqlite3 errors, in SQLite words', () => {
    expect(unavailableReason(prismaError('SQLITE_BUSY', 'database is locked'))).toBe('database is locked');
    expect(unavailableReason(prismaError('SQLITE_READONLY', 'attempt to write a readonly database'))).toBe(
      'attempt to write a readonly database',
    );
    expect(unavailableReason(prismaError('SQLITE_FULL', 'database or disk is full'))).toBe('database or disk is full');
    expect(unavailableReason(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(
      'disk I/O error',
    );
    expect(unavailableReason(Object.assign(new Error('x'), { name: 'PrismaClientInitializationError' }))).toBe(
      'the database cannot be opened',
    );
  });

  it("leaves other errors alone: bugs, constraints, the caller's mistakes", () => {
    expect(unavailableReason(new Error('boom'))).toBeUndefined();
    expect(
      unavailableReason(prismaError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: Analysis.id')),
    ).toBeUndefined();
    expect(unavailableReason(prismaError('SQLITE_ERROR', 'no such table: Nope'))).toBeUndefined();
    expect(unavailableReason(undefined)).toBeUndefined();
  });
});

describe('Availability', () => {
  function setup(options: { probeFails?: boolean } = {}) {
    let now = 1000;
    let probeFails = options.probeFails ?? true;
    let probes = 0;
    let failure: Error = prismaError('SQLITE_BUSY', 'database is locked');
    const logger = recordingLogger();
    const availability = new Availability({
      retryMs: 100,
      freshMs: 1000,
      now: () => now,
      logger,
      probe: async () => {
        probes++;
        if (probeFails) throw failure;
      },
    });
    return {
      availability,
      logger,
      advance: (ms: number) => (now += ms),
      mend: () => (probeFails = false),
      breakWith: (error: Error) => {
        failure = error;
        probeFails = true;
      },
      probes: () => probes,
    };
  }
  const locked = () => Promise.reject(prismaError('SQLITE_BUSY', 'database is locked'));

  it('turns a failing write into DatabaseUnavailableError and refuses writes until a trial is due', async () => {
    const { availability, advance, logger } = setup();
    await expect(availability.write(locked)).rejects.toThrow(DatabaseUnavailableError);
    expect(availability.reason).toBe('database is locked');
    expect(logger.lines.filter((l) => l.level === 'error')).toHaveLength(1);

    let tried = 0;
    const write = async () => {
      tried++;
      return 'written';
    };
    await expect(availability.write(write)).rejects.toThrow(/database is locked/);
    expect(tried).toBe(0); // refused at once
    expect(await availability.read(async () => 'read')).toBe('read'); // reads are always tried

    advance(100);
    expect(await availability.write(write)).toBe('written'); // the trial, and it worked
    expect(tried).toBe(1);
    expect(availability.reason).toBeUndefined();
    expect(logger.lines.some((l) => l.msg === 'database available again')).toBe(true);
  });

  it('refuses reads at once while reads fail too, but for one trial per retry interval', async () => {
    const { availability, advance } = setup();
    const unreachable = () =>
      Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { kind: 'DatabaseNotReachable' }));
    await expect(availability.read(unreachable)).rejects.toThrow(DatabaseUnavailableError);
    let tried = 0;
    const read = async () => {
      tried++;
      return 'read';
    };
    await expect(availability.read(read)).rejects.toThrow(DatabaseUnavailableError);
    expect(tried).toBe(0); // refused at once: no wait for a connection
    advance(100);
    expect(await availability.read(read)).toBe('read'); // the trial, and it worked
    expect(await availability.read(read)).toBe('read');
    expect(tried).toBe(2);
  });

  it('healthy(): false while unavailable, a trial write when due, true once it succeeds', async () => {
    const { availability, advance, mend, breakWith } = setup({ probeFails: false });
    expect(await availability.healthy()).toBe(true); // after a trial write
    await availability.write(locked).catch(() => undefined);
    breakWith(prismaError('SQLITE_BUSY', 'database is locked'));
    expect(await availability.healthy()).toBe(false);
    advance(100);
    expect(await availability.healthy()).toBe(false); // the trial failed
    mend();
    expect(await availability.healthy()).toBe(false); // no trial due yet
    advance(100);
    expect(await availability.healthy()).toBe(true);
    expect(availability.reason).toBeUndefined();
  });

  it('healthy(): true only after a real write, and only while that write is recent (freshMs)', async () => {
    const { availability, advance, breakWith, probes } = setup({ probeFails: false });
    // Before any write: a trial write first.
    expect(await availability.healthy()).toBe(true);
    expect(probes()).toBe(1);
    advance(999);
    expect(await availability.healthy()).toBe(true);
    expect(probes()).toBe(1); // the trial still vouches
    await availability.write(async () => 'written');
    advance(999);
    expect(await availability.healthy()).toBe(true);
    expect(probes()).toBe(1); // so does any successful write
    // The disk fills up while nothing is written: the next check after freshMs finds out.
    breakWith(prismaError('SQLITE_FULL', 'database or disk is full'));
    advance(1);
    expect(await availability.healthy()).toBe(false);
    expect(probes()).toBe(2);
    expect(availability.reason).toBe('database or disk is full');
  });

  it('trial(): one at a time; a failing one marks the store unavailable with its reason', async () => {
    const { availability, probes } = setup({ probeFails: true });
    const [a, b] = await Promise.all([availability.trial(), availability.trial()]);
    expect([a, b]).toEqual([false, false]);
    expect(probes()).toBe(1);
    expect(availability.reason).toBe('database is locked');
    expect(await availability.healthy()).toBe(false); // no new trial before retryMs
    expect(probes()).toBe(1);
  });

  it('passes other errors through without changing its state', async () => {
    const { availability } = setup({ probeFails: false });
    await expect(availability.write(() => Promise.reject(new Error('wrong token')))).rejects.toThrow('wrong token');
    expect(availability.reason).toBeUndefined();
    expect(await availability.healthy()).toBe(true);
  });
});
