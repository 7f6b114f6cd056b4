import { checkText } from './check-text.js';
import type { Tokenizer } from './tokenizer.js';

// Weights fitted by least squares (relative error) against o200k_base on every message text of the shared corpus.
const W_LETTER_RUN = 0.55;
const W_LETTER = 0.03;
const W_DIGIT = 0.48;
const W_PUNCT = 0.71;
const W_NEWLINE = 1.12;
const W_SPACE_RUN = 0.33;
const W_CJK = 1;
const W_OTHER_BYTE = 0.39;

function estimate(text: string): number {
  let letterRuns = 0;
  let letters = 0;
  let digits = 0;
  let punct = 0;
  let newlines = 0;
  let spaceRuns = 0;
  let cjk = 0;
  let otherBytes = 0;
  let prev = 0; // 1 = letter, 2 = space, 0 = other
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      letters++;
      if (prev !== 1) letterRuns++;
      prev = 1;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) {
      if (prev !== 2) spaceRuns++;
      prev = 2;
      continue;
    }
    prev = 0;
    if (c >= 48 && c <= 57) digits++;
    else if (c === 10) newlines++;
    else if (c < 128) punct++;
    else if ((c >= 0x3040 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af)) cjk++;
    else if (c >= 0xd800 && c <= 0xdbff) {
      otherBytes += 4;
      i++;
    } else otherBytes += c < 0x800 ? 2 : 3;
  }
  const raw =
    W_LETTER_RUN * letterRuns +
    W_LETTER * letters +
    W_DIGIT * digits +
    W_PUNCT * punct +
    W_NEWLINE * newlines +
    W_SPACE_RUN * spaceRuns +
    W_CJK * cjk +
    W_OTHER_BYTE * otherBytes;
  return Math.ceil(raw);
}

/**
 * The estimate tokenizer (`encoding: 'estimate'`, `estimated: true`), for models without a public encoding (Anthropic).
 *
 * @remarks
 * A linear heuristic over one pass of UTF-16 code units (O(n), no allocation):
 * `ceil(0.55·letterRuns + 0.03·asciiLetters + 0.48·digits + 0.71·asciiPunctuation + 1.12·newlines
 * + 0.33·spaceRuns + 1.0·cjkChars + 0.39·otherUtf8Bytes)`, where a letter run is a maximal run of ASCII letters,
 * a space run a maximal run of spaces/tabs/CR, CJK covers U+3040–U+9FFF and U+AC00–U+D7AF, and other non-ASCII
 * characters count by their UTF-8 byte length. Weights were fitted against `o200k_base` on the 4,409 message texts
 * of the shared corpus (2.4 M chars). Measured there: total −0.4 % vs o200k; per-message relative error (messages of
 * ≥ 20 tokens) median 3.3 %, p95 16 %. It is a stand-in for the real count, not a bound: Anthropic's own tokenizer
 * differs from o200k too, so treat results as ±20 % and calibrate with provider-reported usage (see {@link occupancy}).
 * Same input checks as the exact tokenizers.
 *
 * @example
 * ```ts
 * estimateTokenizer.count('hello world'); // 2
 * estimateTokenizer.estimated; // true
 * ```
 */
export const estimateTokenizer: Tokenizer = Object.freeze({
  encoding: 'estimate',
  estimated: true,
  count(text: string): number {
    checkText(text);
    return estimate(text);
  },
});
