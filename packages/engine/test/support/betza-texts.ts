/**
 * Random Betza texts built from the contract's grammar (modifiers, an atom or shorthand, maybe
 * doubled or numbered), for the property tests of the Betza reader and of fairy solving. A few
 * are refused all the same (`frK`, `W` + `W3` = `WW3`, ...): tests that need a piece filter them.
 */

import fc from 'fast-check';

const letter = fc.constantFrom(...'WFDNAHCZGKRBQ');
const modifier = fc.oneof(
  { weight: 16, arbitrary: fc.constantFrom(...'fbrlvsnm') },
  { weight: 1, arbitrary: fc.constant('c') },
);
const suffix = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constant('twice') },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 4 }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 256 }).map(String) },
);
const term = fc
  .tuple(fc.array(modifier, { maxLength: 3 }), letter, suffix)
  .map(([prefix, atom, end]) => prefix.join('') + atom + (end === 'twice' ? atom : end));

/** Texts of one to `maxTerms` terms of the subset's grammar. */
export const betzaText = (maxTerms = 4): fc.Arbitrary<string> =>
  fc.array(term, { minLength: 1, maxLength: maxTerms }).map((terms) => terms.join(''));
