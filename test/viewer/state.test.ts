/**
 * The viewer's question in the URL (src/viewer/state.ts), without a browser: a fairy piece's
 * Betza text goes into the query string with piece FAIRY and comes back out of it; it is left out
 * for other pieces and with a position; a fairy question without a text is not complete. A URL
 * that asks nothing (a first visit to `/`) is the seed example; any question part asks its own.
 */
import { describe, expect, it } from 'vitest';
import {
  asksBetza,
  emptyQuestion,
  isBlankSearch,
  isComplete,
  isFairy,
  PIECES,
  pieceLabel,
  type Question,
  questionFromSearch,
  questionFromUrl,
  searchFromQuestion,
  seedQuestion,
  toggleSquare,
} from '../../src/viewer/state.js';

const nightrider: Question = { ...emptyQuestion(), piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'] };

describe('viewer question state', () => {
  it('offers the fairy piece with the orthodox ones, in words', () => {
    expect(PIECES).toContain('FAIRY');
    expect(PIECES.map(pieceLabel)).toEqual([
      'king',
      'queen',
      'rook',
      'bishop',
      'knight',
      'white pawn',
      'black pawn',
      'fairy piece',
    ]);
  });

  it('keeps a fairy piece and its Betza text in the URL', () => {
    const search = searchFromQuestion(nightrider);
    expect(search).toBe('?piece=FAIRY&betza=NN&board=8x8&from=a1&to=h8');
    expect(questionFromSearch(search)).toEqual(nightrider);
    expect(questionFromSearch('?piece=fairy&betza=%20nN%20&board=10x9&from=a1&to=j9')).toMatchObject({
      piece: 'FAIRY',
      betza: 'nN',
      files: 10,
      ranks: 9,
    });
  });

  it('writes any text as it is, to be refused by the server (not read as something else)', () => {
    for (const betza of ['pN', 'fmWfcF', 'W3', 'a&b=c', 'Q N', '#']) {
      const q = { ...nightrider, betza };
      expect(questionFromSearch(searchFromQuestion(q))).toEqual(q);
    }
  });

  it('leaves the text out for other pieces, with a position, and when empty', () => {
    const king = { ...nightrider, piece: 'KING' as const };
    expect(searchFromQuestion(king)).toBe('?piece=KING&board=8x8&from=a1&to=h8');
    expect(asksBetza(king)).toBe(false);
    const fen = { ...nightrider, fen: '8/8/8/8/8/8/8/N7 w - - 0 1' };
    expect(isFairy(fen)).toBe(false);
    expect(searchFromQuestion(fen)).not.toContain('betza');
    expect(searchFromQuestion({ ...nightrider, betza: '' })).toBe('?piece=FAIRY&board=8x8&from=a1&to=h8');
    expect(questionFromSearch('?piece=KING&from=e4&to=a1').betza).toBe('');
  });

  it('asks a fairy question only with a text, sources and targets', () => {
    expect(isComplete(nightrider)).toBe(true);
    expect(isComplete({ ...nightrider, betza: '' })).toBe(false);
    expect(isComplete({ ...nightrider, to: [] })).toBe(false);
    expect(isComplete({ ...nightrider, piece: 'KING', betza: '' })).toBe(true);
  });

  it('keeps the text while squares are toggled', () => {
    const next = toggleSquare(nightrider, 'obstacle', 'c2');
    expect(next).toMatchObject({ piece: 'FAIRY', betza: 'NN', blocked: ['c2'] });
    expect(searchFromQuestion(next)).toBe('?piece=FAIRY&betza=NN&board=8x8&from=a1&to=h8&blocked=c2');
  });

  it('shows the seed example for a URL that asks nothing, and its own question otherwise', () => {
    expect(seedQuestion()).toEqual({ ...emptyQuestion(), from: ['e4'], to: ['a1', 'h8'] });
    expect(searchFromQuestion(seedQuestion())).toBe('?piece=KING&board=8x8&from=e4&to=a1,h8');
    for (const search of ['', '?', '?utm=x']) {
      expect(isBlankSearch(search)).toBe(true);
      expect(questionFromUrl(search)).toEqual(seedQuestion());
    }
    for (const search of ['?board=8x8', '?piece=KING', '?fen=8/8/8/8/8/8/8/8', '?from=a1']) {
      expect(isBlankSearch(search)).toBe(false);
      expect(questionFromUrl(search)).toEqual(questionFromSearch(search));
    }
    expect(questionFromUrl('?piece=KING&board=8x8')).toEqual(emptyQuestion());
  });

  it('reads any side the engine takes from the URL (the server refuses what is over its own limit)', () => {
    expect(questionFromSearch('?piece=KING&board=64x40&from=bl1&to=a40')).toMatchObject({
      files: 64,
      ranks: 40,
      from: ['bl1'],
      to: ['a40'],
    });
    expect(questionFromSearch('?board=256x1')).toMatchObject({ files: 256, ranks: 1 });
    expect(questionFromSearch('?board=257x0')).toMatchObject({ files: 8, ranks: 8 });
    expect(questionFromSearch('?board=12')).toMatchObject({ files: 12, ranks: 12 });
    expect(searchFromQuestion(questionFromSearch('?piece=KING&board=64x64'))).toBe('?piece=KING&board=64x64');
  });
});
