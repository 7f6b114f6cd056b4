import fc from 'fast-check';
import { expect, test } from 'vitest';
import { runs } from '../src/said-words.js';

/** The plain definition `runs` implements: every run, trimmed by regular expressions, then filtered. */
function plainRuns(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9_./:-]+/g)) {
    const word = m[0].replace(/[./:-]+$/, '').replace(/^[:-]+/, '');
    if (word.length >= 5 && word.length <= 64 && /[A-Za-z]/.test(word)) out.push(word);
  }
  return out;
}

test('property: runs finds the words the plain definition finds, in order', () => {
  // text made of the characters that matter (letters, digits, identifier punctuation) and separators
  const unit = fc.constantFrom('a', 'Z', 'x', '7', '_', '.', '/', ':', '-', ' ', '\n', 'é', ',', '(');
  const text = fc.oneof(fc.string({ unit, maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 80 }));
  fc.assert(
    fc.property(text, (s) => {
      expect(runs(s)).toEqual(plainRuns(s));
    }),
    { numRuns: 3000 },
  );
  const long = 'b'.repeat(64);
  expect(runs(`see src/app/main.ts: -- ${'a'.repeat(65)} ${long}/ :-parse_args.- 12345 hello`)).toEqual(['src/app/main.ts', long, 'parse_args', 'hello']);
});
