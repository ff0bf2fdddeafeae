/**
 * The GraphQL-over-HTTP conformance audits that `graphql-http` publishes (`serverAudits`: MUST,
 * SHOULD and MAY requirements of the specification, each one request to a real server), run
 * against `/graphql` on a real server. Every audit must pass, the MAY and SHOULD ones included;
 * a failure names each failing audit with its reason. The audits are sent one at a time, in the
 * package's order, so a failure reads the same on every run.
 */
import { type AuditResult, serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false });
});
afterAll(async () => {
  await t?.close();
});

/** The audit's requirement level, the first word of its name. */
const levelOf = (result: AuditResult) => result.name.split(' ')[0];

describe('graphql-http server audits on /graphql', () => {
  it('pass, every MUST, SHOULD and MAY', async () => {
    const audits = serverAudits({ url: `${t.url}/graphql`, fetchFn: fetch });
    const results: AuditResult[] = [];
    for (const audit of audits) results.push(await audit.fn());

    const tally = ['MUST', 'SHOULD', 'MAY'].map((level) => {
      const ofLevel = results.filter((r) => levelOf(r) === level);
      return `${level} ${ofLevel.filter((r) => r.status === 'ok').length}/${ofLevel.length}`;
    });
    const failures = results.flatMap((r) => (r.status === 'ok' ? [] : [`${r.id} ${r.name}: ${r.reason}`]));
    expect(failures, `${tally.join(', ')}; failing:\n${failures.join('\n')}`).toEqual([]);
    // Every audit ran and has a level: an empty or renamed list must not pass unnoticed.
    expect(results.length).toBe(audits.length);
    expect(results.length).toBeGreaterThanOrEqual(61);
    expect(results.every((r) => ['MUST', 'SHOULD', 'MAY'].includes(levelOf(r)))).toBe(true);
  });
});
