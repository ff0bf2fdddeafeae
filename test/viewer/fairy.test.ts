/**
 * The viewer's fairy pieces (src/viewer/fairy.ts), without a browser: every preset is a text of
 * the subset whose canonical form is the one the library answers (so an answer is named by it),
 * presets are found by their text and by the canonical text, and the words for the piece an answer
 * moves: a named fairy piece, an unnamed one, and a text that is an orthodox piece.
 */

import { solve } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import {
  fairyTitle,
  PRESETS,
  pieceName,
  pieceReading,
  presetByCanonical,
  presetByText,
  presetLabel,
} from '../../src/viewer/fairy.js';

/** What the library answers for a Betza text on the 8 x 8 board. */
const library = (betza: string) => solve({ piece: 'FAIRY', betza, from: ['a1'], to: ['h8'] });

describe('viewer fairy presets', () => {
  it('holds the named pieces, each a fairy piece the library reads as its canonical text', () => {
    const byName = Object.fromEntries(PRESETS.map((p) => [p.name, p.betza]));
    expect(byName).toMatchObject({
      nightrider: 'NN',
      chancellor: 'RN',
      archbishop: 'BN',
      amazon: 'QN',
      camel: 'C',
      zebra: 'Z',
      'Xiangqi horse': 'nN',
      'Xiangqi elephant': 'nA',
      grasshopper: 'gQ',
      cannon: 'pR',
      'nightrider-hopper': 'pNN',
    });
    for (const preset of PRESETS) {
      const answer = library(preset.betza);
      expect(answer.piece, preset.name).toBe('FAIRY');
      expect(answer.betza, preset.name).toBe(preset.canonical);
      // The canonical text reads back as itself.
      expect(library(preset.canonical).betza, preset.name).toBe(preset.canonical);
    }
  });

  it('gives each preset its own text, canonical text and name', () => {
    for (const key of ['betza', 'canonical', 'name'] as const) {
      expect(new Set(PRESETS.map((p) => p[key])).size).toBe(PRESETS.length);
    }
  });

  it('finds a preset by its text and by the canonical text', () => {
    expect(presetByText('RN')?.name).toBe('chancellor');
    expect(presetByText('WWN')).toBeUndefined();
    expect(presetByCanonical(library('WWN').betza ?? '')?.name).toBe('chancellor');
    expect(presetByCanonical(library('N0').betza ?? '')?.name).toBe('nightrider');
    expect(presetByCanonical('W3')).toBeUndefined();
    expect(presetLabel(PRESETS[0])).toBe('nightrider (NN)');
  });

  it('says which piece an answer moves', () => {
    expect(pieceReading('FAIRY', 'NN')).toBe('nightrider, Betza NN');
    expect(pieceReading('FAIRY', 'RN')).toBe('chancellor, Betza RN');
    expect(pieceReading('FAIRY', 'W3')).toBe('Betza W3');
    const king = library('WF');
    expect(king.piece).toBe('KING');
    expect(pieceReading(king.piece, king.betza)).toBe('This is the king: K');
    expect(pieceReading('FAIRY', null)).toBeNull();
    expect(pieceName('FAIRY', 'nA')).toBe('Xiangqi elephant');
    expect(pieceName('FAIRY', 'W3')).toBe('fairy piece');
    expect(pieceName('WHITE_PAWN', null)).toBe('white pawn');
    expect(fairyTitle('FAIRY', 'NN')).toBe('nightrider NN');
  });
});
