/**
 * The viewer page: reads the question from the URL (a URL that asks none, a first visit to `/`,
 * shows the seed example answered, with a line on how to ask another), asks the server through
 * the GraphQL API at once on every change, and shows the answer on the board and beside it. Every change of the
 * question is a new history entry, so back and forward step through questions. A game (a pasted
 * PGN, or a saved analysis's) takes the board over in its own mode (game.ts) until it is left.
 */
import { MAX_BOARD_SIDE } from '@chess-paths/engine';
import { AnalysesPanel, questionOfSaved, type Saveable } from './analyses.js';
import {
  type AnalysisDetail,
  ask,
  askBoardLimit,
  askPosition,
  type Placed,
  type Problem,
  pathQuery,
  type Result,
} from './api.js';
import { BoardGrid, type BoardView, type Orientation, pieceLetter } from './board.js';
import { fairyTitle, PRESETS, pieceReading, presetByText, presetLabel } from './fairy.js';
import { GameMode } from './game.js';
import { PathPager } from './pager.js';
import { attackedNote, avoidedSquares, el, picture, summary } from './render.js';
import {
  emptyQuestion,
  isBlankSearch,
  isComplete,
  isFairy,
  type Mode,
  moverLetter,
  nextStep,
  PIECES,
  type Piece,
  pieceLabel,
  type Question,
  questionFromUrl,
  searchFromQuestion,
  toggleSquare,
} from './state.js';

/** An element of the page by id. */
function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
}

const pieceSelect = byId<HTMLSelectElement>('piece');
const filesInput = byId<HTMLInputElement>('files');
const ranksInput = byId<HTMLInputElement>('ranks');
const fenInput = byId<HTMLInputElement>('fen');
const avoidInput = byId<HTMLInputElement>('avoid');
const fairyField = byId('fairy-field');
const betzaInput = byId<HTMLInputElement>('betza');
const presetSelect = byId<HTMLSelectElement>('betza-preset');
const hint = byId('hint');
const answerBox = byId('answer');
const pictureBox = byId('picture');
const errors = {
  piece: byId('piece-error'),
  size: byId('size-error'),
  fen: byId('fen-error'),
  board: byId('board-error'),
  general: byId('error'),
};

let question = questionFromUrl(location.search);
let result: Result | null = null;
let pieces: Placed[] = [];
/** The FEN whose pieces `pieces` are: they stay drawn while a question on that position is refused. */
let piecesFen = '';
let serial = 0;

const grid = new BoardGrid(byId('board'), (name) => {
  if (game.active) game.pick(name);
  else if (emptySourceOfPosition(name)) {
    errors.board.textContent = `${name} has no piece in this position: click one of its pieces as the source.`;
  } else change(toggleSquare(question, mode(), name));
});
const pager = new PathPager(byId('paths'), (squares) => grid.showPath(squares));
const pictureDetails = byId<HTMLDetailsElement>('picture-box');
const analyses = new AnalysesPanel(byId('analyses'), saveable, openSaved);
const game = new GameMode(
  {
    grid,
    hint,
    error: errors.general,
    onMode(active) {
      document.querySelector('main')?.classList.toggle('game-mode', active);
      byId('answer-title').textContent = active ? 'Game' : 'Answer';
      if (!active) void update();
    },
    onChange: () => analyses.offer(saveable()),
    askPaths: (fen) => change({ ...emptyQuestion(), fen }),
  },
  byId('game-nav'),
  byId('game'),
);

for (const piece of PIECES) pieceSelect.append(new Option(pieceLabel(piece), piece));
presetSelect.append(new Option('choose one to fill the text…', ''));
for (const preset of PRESETS) {
  const option = new Option(presetLabel(preset), preset.betza);
  option.title = preset.moves;
  presetSelect.append(option);
}

/** The largest board side: the engine's until the server says its own (MAX_BOARD_SIDE). */
let boardLimit = MAX_BOARD_SIDE;

/** Takes the server's largest board side: the size fields offer no more. */
function setBoardLimit(limit: number): void {
  boardLimit = limit;
  for (const input of [filesInput, ranksInput]) input.max = String(limit);
  byId('size-hint').textContent = `Each side 1 to ${limit} on this server.`;
}

/** How long the Betza field waits after a keystroke before it asks (a pause in typing). */
const TYPING_PAUSE_MS = 400;
let betzaTimer: ReturnType<typeof setTimeout> | undefined;

/** True when a click on `name` would make an empty square of the position the source (the server would refuse it). */
function emptySourceOfPosition(name: string): boolean {
  if (!question.fen || mode() !== 'source' || piecesFen !== question.fen) return false;
  return !pieces.some((p) => p.square === name) && !question.from.includes(name);
}

/** The click mode chosen. */
function mode(): Mode {
  return (document.querySelector<HTMLInputElement>('input[name="mode"]:checked')?.value ?? 'source') as Mode;
}

/** Applies a new question (leaving any game on screen): a history entry, then the answer. */
function change(next: Question): void {
  clearTimeout(betzaTimer);
  betzaTimer = undefined;
  if (game.active) game.leave(false);
  question = next;
  history.pushState(null, '', searchFromQuestion(question));
  void update();
}

/** Which message slot an error belongs to, from the argument it names. */
function slotOf(problem: Problem): HTMLElement {
  const arg = (problem.argument ?? '').replace(/^query\./, '');
  if (arg.startsWith('fen')) return errors.fen;
  if (arg.startsWith('board')) return errors.size;
  if (arg.startsWith('piece')) return errors.piece;
  if (/^(from|to|blocked|mask)/.test(arg)) return errors.board;
  if (question.fen && /\bFEN\b|position/i.test(problem.message)) return errors.fen;
  return errors.general;
}

/** Shows the form's values for the current question. */
function fillForm(): void {
  pieceSelect.value = question.piece;
  pieceSelect.disabled = question.fen !== '';
  fairyField.hidden = !isFairy(question);
  // The text being typed stays; a question from elsewhere (back, forward, a preset) replaces it.
  const typing = document.activeElement === betzaInput && betzaTimer !== undefined;
  if (!typing && betzaInput.value.trim() !== question.betza) betzaInput.value = question.betza;
  presetSelect.value = presetByText(question.betza)?.betza ?? '';
  filesInput.value = String(question.files);
  ranksInput.value = String(question.ranks);
  if (document.activeElement !== fenInput) fenInput.value = question.fen;
  avoidInput.checked = question.avoidAttacked;
  avoidInput.disabled = question.fen === '';
  const obstacle = document.querySelector<HTMLInputElement>('input[name="mode"][value="obstacle"]');
  if (obstacle) {
    obstacle.disabled = question.fen !== '';
    // A position's pieces are its obstacles: a click there chooses the source again.
    const source = document.querySelector<HTMLInputElement>('input[name="mode"][value="source"]');
    if (obstacle.disabled && obstacle.checked && source) source.checked = true;
  }
}

/** With "avoid attacked squares", the squares the answer avoids as attacked. */
function attackedSquares(): string[] {
  if (!question.fen || !question.avoidAttacked || !result) return [];
  return avoidedSquares(result, new Set(pieces.map((p) => p.square)), question.to);
}

/** The board's view of the question and its answer. */
function drawBoard(): void {
  const view: BoardView = {
    files: question.files,
    ranks: question.ranks,
    sources: question.from,
    targets: question.to,
    obstacles: question.fen ? [] : question.blocked,
    attacked: attackedSquares(),
    steps: new Map(),
    path: result?.path?.squares ?? [],
    pieces: new Map(pieces.map((p) => [p.square, pieceLetter(p.role, p.color)])),
    // The piece that answered (a Betza text may be an orthodox piece), on its sources; a position's pieces are its own.
    mover: question.fen ? undefined : moverLetter(result?.piece ?? question.piece),
  };
  result?.layers.forEach((layer, step) => {
    for (const square of layer.squares) view.steps.set(square, step);
  });
  grid.draw(view);
}

/** Asks the server and shows the answer (a newer question drops an older answer). */
async function update(): Promise<void> {
  const mine = ++serial;
  fillForm();
  for (const slot of Object.values(errors)) slot.textContent = '';
  const complete = isComplete(question);
  let problem: Problem | null = null;
  let next: Result | null = null;
  let nextPieces: Placed[] = [];
  if (question.fen) {
    ({ pieces: nextPieces, result: next, problem } = await askPosition(question, complete));
  } else if (complete) {
    const answer = await ask(question);
    if (answer.ok) next = answer.data;
    else problem = answer.problem;
  }
  if (mine !== serial || game.active) return;
  result = next;
  // A refused question brings the position's pieces, or keeps those drawn for the same FEN.
  if (nextPieces.length > 0 || piecesFen !== question.fen) {
    pieces = nextPieces;
    piecesFen = nextPieces.length > 0 ? question.fen : '';
  }
  if (problem) slotOf(problem).textContent = problem.message;
  if (problem?.boardLimit) setBoardLimit(problem.boardLimit);
  hint.textContent = hintText(complete);
  drawBoard();
  const reading = result && isFairy(question) ? pieceReading(result.piece, result.betza) : null;
  answerBox.replaceChildren(
    ...(reading ? [el('p', 'piece-reading', reading)] : []),
    ...(result ? [summary(result)] : []),
    ...[attackedNote(question.to, attackedSquares())].filter((note) => note !== null),
  );
  drawPicture();
  pictureDetails.hidden = result === null;
  if (question.fen && question.from.length)
    pieceSelect.value = pieceOf(pieces.find((p) => p.square === question.from[0]));
  pager.show(result?.reachable ? question : null);
  analyses.offer(saveable());
}

/** The line over the seed example a first visit shows answered. */
const EXAMPLE_HINT =
  'An example: a king from e4 to a1 and h8. To ask your own, press “Clear the board” and click squares.';

/** The picture of the answer, drawn only while it is open (a big board's is large), in the board's orientation. */
function drawPicture(): void {
  const shown = pictureDetails.open && result !== null && !game.active;
  pictureBox.replaceChildren(...(shown && result ? [picture(result, pieces, grid.orientation)] : []));
}

/** What to do next, in words. */
function hintText(complete: boolean): string {
  return isBlankSearch(location.search) ? EXAMPLE_HINT : nextStep(question, complete);
}

/** The piece a position's piece moves as. */
function pieceOf(p: Placed | undefined): Piece {
  if (!p) return question.piece;
  if (p.role === 'PAWN') return p.color === 'WHITE' ? 'WHITE_PAWN' : 'BLACK_PAWN';
  return p.role as Piece;
}

/** The current answer (or game) as an analysis to save, or null. */
function saveable(): Saveable | null {
  if (game.active) return game.saveable();
  if (!result) return null;
  const piece = question.fen ? pieceOf(pieces.find((p) => p.square === question.from[0])) : question.piece;
  const name = isFairy(question) && result.betza ? fairyTitle(result.piece, result.betza) : pieceLabel(piece);
  const title = `${name} ${question.from.join(',')} → ${question.to.join(',')}`;
  const base = { ...pathQuery(question), piece };
  // With a position the effective mask carries the blocking pieces and the attacked squares.
  const query = question.fen ? { ...base, blocked: [], fen: question.fen, mask: result.mask } : base;
  return { title, notes: `viewer${searchFromQuestion(question)}`, fen: question.fen, queries: [query] };
}

/** Puts an opened analysis's game, or else its first query, on the board. */
function openSaved(analysis: AnalysisDetail): void {
  if (analysis.game) void game.openSaved(analysis.id, analysis.notes);
  else change(questionOfSaved(analysis));
}

pieceSelect.addEventListener('change', () => change({ ...question, piece: pieceSelect.value as Piece }));
/** Asks with the Betza field's text, if it differs from the question's. */
function commitBetza(): void {
  clearTimeout(betzaTimer);
  betzaTimer = undefined;
  const betza = betzaInput.value.trim();
  if (betza !== question.betza) change({ ...question, betza });
}
betzaInput.addEventListener('input', () => {
  clearTimeout(betzaTimer);
  betzaTimer = setTimeout(commitBetza, TYPING_PAUSE_MS);
});
betzaInput.addEventListener('change', commitBetza);
presetSelect.addEventListener('change', () => {
  if (!presetSelect.value) return;
  betzaInput.value = presetSelect.value;
  commitBetza();
});
for (const input of [filesInput, ranksInput]) {
  input.addEventListener('change', () => {
    const files = Number(filesInput.value);
    const ranks = Number(ranksInput.value);
    if (![files, ranks].every((n) => Number.isInteger(n) && n >= 1 && n <= boardLimit)) {
      errors.size.textContent = `A board side is a whole number from 1 to ${boardLimit}.`;
      return;
    }
    change({ ...question, files, ranks, from: [], to: [], blocked: [] });
  });
}
fenInput.addEventListener('change', () => {
  change({ ...question, fen: fenInput.value.trim(), from: [], to: [], blocked: [] });
});
avoidInput.addEventListener('change', () => change({ ...question, avoidAttacked: avoidInput.checked }));
byId('clear').addEventListener('click', () => {
  change({ ...question, from: [], to: [], blocked: [], fen: '', avoidAttacked: false });
});
pictureDetails.addEventListener('toggle', drawPicture);
for (const input of document.querySelectorAll<HTMLInputElement>('input[name="orientation"]')) {
  input.addEventListener('change', () => {
    if (!input.checked) return;
    grid.orient(input.value as Orientation);
    drawPicture();
  });
}
window.addEventListener('popstate', () => {
  question = questionFromUrl(location.search);
  if (!game.follow(location.hash)) void update();
});

if (!game.follow(location.hash)) void update();
void analyses.load(true);
void askBoardLimit().then((limit) => {
  if (limit !== null) setBoardLimit(limit);
});
