import { beforeAll, describe, expect, it } from 'vitest';
import { loadTokenizer, type Tokenizer } from '@ctxgit/tokenize';
import { briefValues } from '../src/brief-values.js';
import { briefWriter } from '../src/default-brief.js';
import { defaultBrief, itemFromNode, RulesCache, type ContextItem } from '../src/index.js';
import { rankSaid, saidLine } from '../src/said-words.js';
import { loadCorpus, transcriptNodes } from './corpus-replay.js';

let tokenizer: Tokenizer;
beforeAll(async () => {
  tokenizer = await loadTokenizer('o200k_base');
});

/** Every corpus conversation's items, as the pipeline makes them from its nodes. */
function conversations(): { name: string; items: ContextItem[] }[] {
  return loadCorpus().flatMap((f) => f.transcripts.map((t, k) => ({ name: `${f.corpus}/${f.file} #${k}`, items: transcriptNodes(t, `c${k}`).map((n) => itemFromNode(n, tokenizer)) })));
}

/** Overlapping spans of every corpus conversation (at most `length` items, ending every `step` from the 4th), with one cache per conversation. */
function* corpusSpans(step: number, length: number): Generator<{ label: string; span: ContextItem[]; cache: RulesCache }> {
  for (const { name, items } of conversations()) {
    const cache = new RulesCache();
    for (let end = 4; end <= items.length; end += step) yield { label: `${name} ..${end}`, span: items.slice(Math.max(0, end - length), end), cache };
  }
}

// The brief's lines remember what each block offers in the session's RulesCache: with it, and read again from the
// memo on overlapping spans, they must be what they are without it (the plain path is the oracle).
describe('brief lines with a RulesCache', () => {
  it('give the lines of the plain path on every corpus conversation, spans overlapping', () => {
    let spans = 0;
    for (const { label, span, cache } of corpusSpans(3, 40)) {
      for (const allowance of [120, 700]) {
        expect(briefValues(span, allowance, cache), `${label} values`).toBe(briefValues(span, allowance));
        expect(saidLine(rankSaid(span, cache), allowance, 'already said'), `${label} said`).toBe(saidLine(rankSaid(span), allowance, 'already said'));
      }
      spans++;
    }
    expect(spans).toBeGreaterThan(100);
  });
});

// A fold writes its brief at halving allowances from one writer: each write must be what a brief written afresh at
// that allowance is, whatever was written before it.
describe('a brief writer', () => {
  it('writes at each allowance what defaultBrief writes afresh, on every corpus conversation', () => {
    let writes = 0;
    for (const { label, span, cache } of corpusSpans(7, 60)) {
      const write = briefWriter(span, cache);
      for (const allowance of [2400, 1200, 600, 160, 64, 1400]) {
        expect(write(allowance), `${label} at ${allowance}`).toBe(defaultBrief(span, allowance));
        writes++;
      }
    }
    expect(writes).toBeGreaterThan(600);
  });
});
