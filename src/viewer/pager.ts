/**
 * Every shortest path, one page at a time, with cursor paging (`paths(first, after)`): the
 * cursors of the pages already seen are kept, so "Previous" goes back without counting offsets.
 */
import { pathsPage } from './api.js';
import { el, pathList } from './render.js';
import type { Question } from './state.js';

/** Page sizes offered. */
const SIZES = [3, 10, 25, 100];

/** The pager of one question's paths; `show(q)` starts again on its first page. */
export class PathPager {
  private question: Question | null = null;
  /** `after` cursor of every page up to the current one (null for the first). */
  private cursors: (string | null)[] = [null];
  private next: string | null = null;
  private size = 10;
  private readonly body = el('div', 'page-body');
  private readonly status = el('p', 'page-status');
  private readonly prev = button('Previous page', 'prev-page');
  private readonly more = button('Next page', 'next-page');
  private readonly sizes = document.createElement('select');
  private serial = 0;

  /** Builds the pager inside `root`. */
  constructor(private readonly root: HTMLElement) {
    this.sizes.id = 'page-size';
    for (const size of SIZES) this.sizes.append(new Option(String(size), String(size), size === 10, size === 10));
    const label = el('label', '', 'Paths per page ', this.sizes);
    this.sizes.addEventListener('change', () => {
      this.size = Number(this.sizes.value);
      this.cursors = [null];
      void this.load();
    });
    this.prev.addEventListener('click', () => {
      if (this.cursors.length > 1) this.cursors.pop();
      void this.load();
    });
    this.more.addEventListener('click', () => {
      if (this.next === null) return;
      this.cursors.push(this.next);
      void this.load();
    });
    const nav = el('div', 'page-nav', this.prev, this.status, this.more);
    root.replaceChildren(el('h3', '', 'All shortest paths'), label, this.body, nav);
  }

  /** Shows the first page of a question's paths (null: nothing to show). */
  show(q: Question | null): void {
    this.question = q;
    this.root.hidden = q === null;
    this.cursors = [null];
    void this.load();
  }

  /** Loads the current page. */
  private async load(): Promise<void> {
    const serial = ++this.serial;
    const q = this.question;
    this.prev.disabled = true;
    this.more.disabled = true;
    if (!q) {
      this.body.replaceChildren();
      this.status.textContent = '';
      return;
    }
    // The page on screen stays until the next one arrives, marked as out of date meanwhile.
    this.body.setAttribute('aria-busy', 'true');
    const after = this.cursors[this.cursors.length - 1];
    const answer = await pathsPage(q, this.size, after);
    if (serial !== this.serial) return;
    this.body.removeAttribute('aria-busy');
    if (!answer.ok) {
      this.body.replaceChildren(el('p', 'error', answer.problem.message));
      return;
    }
    const page = answer.data;
    const offset = (this.cursors.length - 1) * this.size;
    this.body.replaceChildren(pathList(page, offset));
    this.next = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    const last = offset + page.edges.length;
    this.status.textContent = `${page.edges.length ? offset + 1 : 0}–${last} of ${page.totalCount}`;
    this.prev.disabled = this.cursors.length <= 1;
    this.more.disabled = this.next === null;
  }
}

/** A plain button with a class. */
function button(text: string, className: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = text;
  return b;
}
