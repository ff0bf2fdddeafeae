/**
 * Saved analyses: save the current answer (`saveAnalysis`; the edit token is shown once, with a
 * copy button), list what is saved, newest first (`analyses(first, after)`), and open one again
 * (`analysis(id)`: its first query goes back on the board, or its game into the game mode).
 */
import { squareName } from '@chess-paths/engine';
import { type AnalysisDetail, type AnalysisSummary, listAnalyses, openAnalysis, save } from './api.js';
import { el, outsideMask } from './render.js';
import { type Question, questionFromSearch } from './state.js';

/** What saving needs of the page: the current queries and game, or null when there is nothing to save. */
export interface Saveable {
  title: string;
  notes: string;
  fen: string;
  queries: object[];
  /** A game's PGN. */
  pgn?: string;
}

/**
 * The question an opened analysis (without a game) puts back on the board: its first query, with
 * the viewer's own link from its notes for what the query does not say ("avoid attacked squares").
 */
export function questionOfSaved(analysis: AnalysisDetail): Question {
  const first = analysis.results[0];
  const board = first.board;
  const link = analysis.notes?.startsWith('viewer?') ? questionFromSearch(analysis.notes.slice(6)) : null;
  const next: Question = {
    piece: first.piece,
    files: board.files,
    ranks: board.ranks,
    from: first.sources.squares,
    to: first.targets.squares,
    blocked: [],
    fen: analysis.fen ?? '',
    avoidAttacked: link?.avoidAttacked ?? false,
    // A fairy answer carries its canonical text, which asks the same question again.
    betza: first.piece === 'FAIRY' ? (first.betza ?? '') : '',
  };
  if (next.fen) next.from = next.from.slice(0, 1);
  else next.blocked = outsideMask(first, (i) => squareName(i, board));
  return next;
}

/** The analyses panel. */
export class AnalysesPanel {
  private readonly title = document.createElement('input');
  private readonly saveButton = document.createElement('button');
  private readonly saved = el('div', 'saved');
  private readonly list = el('ul', 'analysis-list');
  private readonly moreButton = document.createElement('button');
  private readonly listStatus = el('p', 'list-status');
  private after: string | null = null;

  /** Builds the panel in `root`; `current` gives what to save, `onOpen` takes an opened analysis. */
  constructor(
    root: HTMLElement,
    private readonly current: () => Saveable | null,
    private readonly onOpen: (analysis: AnalysisDetail) => void,
  ) {
    this.title.id = 'analysis-title';
    this.title.maxLength = 200;
    this.title.placeholder = 'Title';
    this.saveButton.type = 'button';
    this.saveButton.id = 'save-analysis';
    this.saveButton.textContent = 'Save as analysis';
    this.saveButton.addEventListener('click', () => void this.save());
    this.moreButton.type = 'button';
    this.moreButton.textContent = 'More analyses';
    this.moreButton.hidden = true;
    this.moreButton.addEventListener('click', () => void this.load(false));
    const form = el('div', 'save-row', el('label', '', 'Title ', this.title), this.saveButton);
    root.replaceChildren(
      el('h2', '', 'Analyses'),
      form,
      this.saved,
      el('h3', '', 'Saved analyses'),
      this.listStatus,
      this.list,
      this.moreButton,
    );
  }

  /** Enables saving when there is an answer, and proposes a title for it. */
  offer(saveable: Saveable | null): void {
    this.saveButton.disabled = saveable === null;
    if (saveable) this.title.placeholder = saveable.title;
  }

  /** Saves the current answer and shows its edit token once. */
  private async save(): Promise<void> {
    const what = this.current();
    if (!what) return;
    this.saveButton.disabled = true;
    const answer = await save(this.title.value.trim() || what.title, what.notes, what.fen, what.queries, what.pgn);
    this.saveButton.disabled = false;
    if (!answer.ok) {
      this.saved.replaceChildren(el('p', 'error', answer.problem.message));
      return;
    }
    const { editToken, analysis } = answer.data;
    const token = document.createElement('input');
    token.readOnly = true;
    token.id = 'edit-token';
    token.value = editToken;
    token.setAttribute('aria-label', 'Edit token');
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.textContent = 'Copy';
    const copied = el('span', 'copied');
    copied.setAttribute('role', 'status');
    copy.addEventListener('click', async () => {
      token.select();
      try {
        await navigator.clipboard.writeText(editToken);
        copied.textContent = 'Copied';
      } catch {
        copied.textContent = 'Selected: copy it with Ctrl+C';
      }
    });
    this.saved.replaceChildren(
      el(
        'p',
        'saved-note',
        `Saved “${analysis.title}”. Its edit token is shown only this once: keep it to edit or delete.`,
      ),
      el('div', 'token-row', token, copy, copied),
    );
    this.title.value = '';
    await this.load(true);
  }

  /** Loads the first page of the list (`fresh`) or the next one. */
  async load(fresh: boolean): Promise<void> {
    if (fresh) this.after = null;
    const answer = await listAnalyses(10, this.after);
    if (!answer.ok) {
      this.listStatus.textContent = answer.problem.message;
      return;
    }
    const page = answer.data;
    const items = page.items.map((item) => this.item(item));
    if (fresh) this.list.replaceChildren(...items);
    else this.list.append(...items);
    this.listStatus.textContent = page.totalCount === 0 ? 'Nothing saved yet.' : `${page.totalCount} saved`;
    this.after = page.endCursor;
    this.moreButton.hidden = !page.hasNextPage;
  }

  /** One entry of the list: a button that opens it. */
  private item(item: AnalysisSummary): HTMLElement {
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'open-analysis';
    open.dataset.id = item.id;
    open.textContent = item.title;
    const when = el('time', '', new Date(item.createdAt).toLocaleString());
    when.setAttribute('datetime', item.createdAt);
    open.addEventListener('click', async () => {
      const answer = await openAnalysis(item.id);
      if (!answer.ok) this.listStatus.textContent = answer.problem.message;
      else if (!answer.data || (answer.data.results.length === 0 && !answer.data.game)) {
        this.listStatus.textContent = 'That analysis is gone.';
      } else this.onOpen(answer.data);
    });
    return el('li', '', open, ' ', when);
  }
}
