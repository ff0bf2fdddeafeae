/**
 * Reading the viewer's board from a page in headless Chromium, for the viewer board tests
 * (`test/viewer/viewer.board.*.test.ts`): a square's button, the coordinates on the board's edges
 * and whether each lies beside the squares it names, the arrows drawn and the squares their ends
 * lie on, how long a poll waits for the page, and where screenshots go.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The directory the viewer board tests' screenshots go to. */
export const SHOTS = join(tmpdir(), 'chess-paths-viewer');

/** How long a poll waits for the page to show something (a request and a render on a loaded machine). */
export const SHOWN = { timeout: 15_000 };

/** The button of a square. */
export const square = (page: Page, name: string) => page.locator(`#board button[data-square="${name}"]`);

/** The moves of a path as `from-to` pairs. */
const moves = (squares: readonly string[]) => squares.slice(1).map((to, i) => `${squares[i]}-${to}`);

/**
 * The coordinates on the board's edges in screen order (file letters left to right, rank numbers
 * top to bottom), and every label that is not beside the squares it names.
 */
export function coordinates(page: Page) {
  return page.evaluate(() => {
    const buttons = [...document.querySelectorAll<HTMLElement>('#board button[data-square]')].map((b) => ({
      name: b.dataset.square ?? '',
      rect: b.getBoundingClientRect(),
    }));
    const wrong: string[] = [];
    const label = (selector: string, axis: 'x' | 'y') =>
      [...document.querySelectorAll<HTMLElement>(selector)].map((l) => {
        const r = l.getBoundingClientRect();
        const at = axis === 'x' ? r.left + r.width / 2 : r.top + r.height / 2;
        const beside = buttons.filter(({ rect }) =>
          axis === 'x' ? rect.left <= at && at < rect.right : rect.top <= at && at < rect.bottom,
        );
        const text = l.textContent ?? '';
        const part = (name: string) => (axis === 'x' ? name.replace(/\d+$/, '') : name.replace(/^[a-z]+/, ''));
        if (beside.length === 0 || beside.some((b) => part(b.name) !== text)) wrong.push(`${text}`);
        return text;
      });
    return { files: label('#board .file-label', 'x'), ranks: label('#board .rank-label', 'y'), wrong };
  });
}

/**
 * The arrows drawn: each one's move, and the squares its two ends lie on, on screen (found by the
 * squares' boxes, so arrows scrolled out of a big board's view count too).
 */
function arrows(page: Page) {
  return page.locator('#board svg.arrows .arrow').evaluateAll((nodes) => {
    const squares = [...document.querySelectorAll<HTMLElement>('#board button[data-square]')].map((b) => ({
      name: b.dataset.square ?? '',
      rect: b.getBoundingClientRect(),
    }));
    return nodes.map((node) => {
      const g = node as SVGGElement;
      const line = g.querySelector('line') as SVGLineElement;
      const [tipX, tipY] = (g.querySelector('polygon')?.getAttribute('points') ?? '')
        .split(' ')[0]
        .split(',')
        .map(Number);
      const matrix = (g.ownerSVGElement as SVGSVGElement).getScreenCTM() as DOMMatrix;
      const under = (x: number, y: number) => {
        const p = new DOMPoint(x, y).matrixTransform(matrix);
        const hit = squares.filter(
          ({ rect }) => rect.left < p.x && p.x < rect.right && rect.top < p.y && p.y < rect.bottom,
        );
        return hit.length === 1 ? hit[0].name : `${hit.length} squares`;
      };
      return {
        move: `${g.dataset.from}-${g.dataset.to}`,
        ends: `${under(line.x1.baseVal.value, line.y1.baseVal.value)}-${under(tipX, tipY)}`,
      };
    });
  });
}

/** Checks the arrows are `path`'s moves, each drawn from its square to the next. */
export async function expectArrows(page: Page, path: readonly string[]): Promise<void> {
  const drawn = await arrows(page);
  expect(drawn.map((a) => a.move)).toEqual(moves(path));
  expect(drawn.map((a) => a.ends)).toEqual(moves(path));
  const onPath = await page
    .locator('#board button.on-path')
    .evaluateAll((cells) => cells.map((c) => (c as HTMLElement).dataset.square).sort());
  expect(onPath).toEqual([...path].sort());
}
