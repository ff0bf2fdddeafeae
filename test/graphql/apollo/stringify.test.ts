/**
 * Large responses written in slices: the text is `JSON.stringify`'s for any value, other work
 * runs while a long answer is written, and a response not marked large takes the native call.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markLarge, stringifyResult } from '../../../src/graphql/apollo/stringify.js';

describe('stringifyResult', () => {
  it("writes any marked response as JSON.stringify's text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 5 }), async (data, errors) => {
        const value = { data: { answer: data, list: [data, { data }] }, errors };
        markLarge(value.data);
        expect(await stringifyResult(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves out undefined and function fields as JSON.stringify does', async () => {
    const data = { a: undefined, b: () => 1, c: [undefined, null, 2], d: { e: 'é😀"\n' } };
    markLarge(data);
    expect(await stringifyResult({ data })).toBe(JSON.stringify({ data }));
  });

  it('lets other work run while it writes a long layer list, and gives the same text', async () => {
    const layers = Array.from({ length: 200_000 }, (_, k) => ({ distance: k, squares: [`a${k % 8}`, 'h8'] }));
    const value = { data: { shortestPaths: { distance: layers.length - 1, layers } } };
    markLarge(value.data);
    let turns = 0;
    let running = true;
    const spin = () => {
      if (!running) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const text = await stringifyResult(value);
    running = false;
    expect(text).toBe(JSON.stringify(value));
    expect(turns).toBeGreaterThan(1);
  });

  it('writes an unmarked response with one native call: no turn passes', async () => {
    const value = { data: { layers: Array.from({ length: 50_000 }, (_, k) => ({ k })) } };
    let turns = 0;
    setImmediate(() => turns++);
    const text = await stringifyResult(value);
    expect(turns).toBe(0);
    expect(text).toBe(JSON.stringify(value));
  });
});
