/**
 * The head of the game panel: every tag pair of the game, in the order written, as a table; and
 * a button that downloads the game as annotated PGN (`Game.pgn(annotate: true)`: the author's
 * comments, marks and variations kept, each detour added as a comment with its arrows, which
 * lichess, ChessBase and other PGN viewers draw), named after the game's tags.
 */
import { askAnnotatedPgn, type GameData, type GameSource } from './game-api.js';
import { gameTitle } from './game-state.js';
import { pgnFileName } from './notation.js';
import { el } from './render.js';

/** The tags and the download. */
export class GameHeader {
  /** The header's elements, in order. */
  readonly parts: HTMLElement[];
  private readonly tags = document.createElement('table');
  private readonly download = document.createElement('button');
  private readonly status = el('p', 'download-status');
  private game: GameData | null = null;
  private source: GameSource | null = null;

  /** Builds the header; `error` is where a refused download says why. */
  constructor(private readonly error: HTMLElement) {
    this.tags.className = 'game-tags';
    this.download.type = 'button';
    this.download.id = 'download-pgn';
    this.download.textContent = 'Download annotated PGN';
    this.download.title = 'The game with its comments and variations, and each detour drawn as arrows';
    this.download.addEventListener('click', () => void this.save());
    this.status.setAttribute('role', 'status');
    this.parts = [this.tags, el('div', 'game-actions', this.download, this.status)];
  }

  /** Shows a new game's tags (and forgets the last download's line). */
  fill(game: GameData, source: GameSource): void {
    this.game = game;
    this.source = source;
    this.status.textContent = '';
    this.tags.setAttribute('aria-label', `Tags: ${gameTitle(game)}`);
    const rows = game.tags.map((t) => {
      const row = document.createElement('tr');
      const name = el('th', '', t.name);
      name.setAttribute('scope', 'row');
      row.append(name, el('td', '', t.value));
      return row;
    });
    if (rows.length === 0) rows.push(el('tr', '', el('td', 'no-tags', 'No tags.')) as HTMLTableRowElement);
    const body = document.createElement('tbody');
    body.append(...rows);
    this.tags.replaceChildren(body);
  }

  /** Asks the annotated PGN and hands it to the browser as a file. */
  private async save(): Promise<void> {
    const game = this.game;
    const source = this.source;
    if (!game || !source) return;
    this.download.disabled = true;
    this.status.textContent = 'Writing the PGN…';
    const answer = await askAnnotatedPgn(source);
    this.download.disabled = false;
    // Another game came meanwhile: this one's file is no longer wanted.
    if (this.game !== game) return;
    if (!answer.ok || answer.data === null) {
      this.status.textContent = '';
      this.error.textContent = answer.ok ? 'No PGN came back.' : answer.problem.message;
      return;
    }
    const name = pgnFileName(game);
    const url = URL.createObjectURL(new Blob([answer.data], { type: 'application/x-chess-pgn' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    // The browser reads the blob some time after the click (FileSaver.js waits 40 s for slow
    // ones): the URL is let go well after, not at once.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    this.status.textContent = `Downloaded ${name}.`;
  }
}
