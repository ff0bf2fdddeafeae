/**
 * Every shortest path, one page at a time, with cursor paging (`paths(first, after)`): the
 * cursors of the pages already seen are kept, so "Previous" goes back without counting offsets.
 * The path under the pointer, else the one with keyboard focus (Up/Down, Home/End move it through
 * the page), is handed to the board to draw (`onPath`; null: none, the board's own path again).
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
  private hovered: HTMLElement | null = null;
  private focused: HTMLElement | null = null;

  /** Builds the pager inside `root`; `onPath` takes the path to draw (its squares), or null. */
  constructor(
    private readonly root: HTMLElement,
    private readonly onPath: (squares: string[] | null) => void = () => {},
  ) {
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
    const item = (target: EventTarget | null) =>
      target instanceof Element ? target.closest<HTMLElement>('li.path') : null;
    this.body.addEventListener('mouseover', (event) => this.point(item(event.target), this.focused));
    this.body.addEventListener('mouseleave', () => this.point(null, this.focused));
    this.body.addEventListener('focusin', (event) => this.point(this.hovered, item(event.target)));
    this.body.addEventListener('focusout', (event) => {
      if (!this.body.contains(event.relatedTarget as Node | null)) this.point(this.hovered, null);
    });
    this.body.addEventListener('keydown', (event) => this.keydown(event));
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

  /** The item under the pointer and the focused one changed: the board draws the first there is. */
  private point(hovered: HTMLElement | null, focused: HTMLElement | null): void {
    const before = this.hovered ?? this.focused;
    this.hovered = hovered;
    this.focused = focused;
    const now = hovered ?? focused;
    if (now !== before) this.onPath(now?.dataset.squares?.split(' ') ?? null);
  }

  /** Up/Down and Home/End move focus through the page's paths (one of them in the tab order). */
  private keydown(event: KeyboardEvent): void {
    const items = [...this.body.querySelectorAll<HTMLElement>('li.path')];
    const at = items.indexOf(event.target as HTMLElement);
    if (at < 0) return;
    const to = { ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: items.length - 1 }[event.key];
    if (to === undefined || to < 0 || to >= items.length) return;
    event.preventDefault();
    items[at].tabIndex = -1;
    items[to].tabIndex = 0;
    items[to].focus();
  }

  /** Loads the current page. */
  private async load(): Promise<void> {
    const serial = ++this.serial;
    const q = this.question;
    this.prev.disabled = true;
    this.more.disabled = true;
    if (!q) {
      this.point(null, null);
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
      this.point(null, null);
      this.body.replaceChildren(el('p', 'error', answer.problem.message));
      return;
    }
    const page = answer.data;
    const offset = (this.cursors.length - 1) * this.size;
    this.point(null, null);
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
