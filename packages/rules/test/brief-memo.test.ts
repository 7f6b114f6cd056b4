import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTokenizer, type Tokenizer } from '@ctxgit/tokenize';
import { briefValues } from '../src/brief-values.js';
import { briefWriter, readBriefAhead } from '../src/default-brief.js';
import { defaultBrief, itemFromNode, runPipeline, RulesCache, RulesOverBudgetError, type ContextItem } from '../src/index.js';
import { rankSaid, saidLine } from '../src/said-words.js';
import { loadCorpus, transcriptNodes } from './corpus-replay.js';
import { FoldStore } from './helpers.js';

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

/**
 * Runs `visit` with a `compare(label, plain, ahead)` that checks both writes give the same brief and counts the JSON
 * texts each parses; returns the counts and the comparisons made.
 */
function compareParses(visit: (compare: (label: string, plain: () => string, ahead: () => string) => void) => void): { cold: number; warm: number; compared: number } {
  const out = { cold: 0, warm: 0, compared: 0 };
  const parse = vi.spyOn(JSON, 'parse');
  const counted = (write: () => string): { text: string; parses: number } => {
    parse.mockClear();
    const text = write();
    return { text, parses: parse.mock.calls.length };
  };
  try {
    visit((label, plain, ahead) => {
      const p = counted(plain);
      const a = counted(ahead);
      expect(a.text, label).toBe(p.text);
      out.cold += p.parses;
      out.warm += a.parses;
      out.compared++;
    });
  } finally {
    parse.mockRestore();
  }
  return out;
}

// The pipeline reads ahead what a brief reads of each block as the block first shows in the live list: a fold's brief
// then reads the blocks' values and words from the memo, and writes what the plain path writes.
describe('reading a brief ahead', () => {
  it('leaves every brief as the plain path writes it, and the brief parses under an eighth of the JSON it parsed', () => {
    const { cold, warm, compared } = compareParses((compare) => {
      for (const { name, items } of conversations()) {
        const ahead = new RulesCache();
        for (let end = 1; end <= items.length; end++) {
          // as the live list grows by a turn's items: the new ones are read ahead
          readBriefAhead(items.slice(end - 1, end), ahead);
          if (end % 5 !== 0) continue;
          const span = items.slice(Math.max(0, end - 30), end);
          compare(`${name} ..${end}`, () => briefWriter(span, new RulesCache())(1400), () => briefWriter(span, ahead)(1400));
        }
      }
    });
    expect(compared).toBeGreaterThan(100);
    expect(warm).toBeLessThan(cold / 8);
  });
});

describe('a pipeline that folds', () => {
  it('reads ahead the blocks of its live list: a brief of the list after each call parses under an eighth of the JSON', () => {
    const { cold, warm, compared } = compareParses((compare) => {
      for (const f of loadCorpus()) {
        f.transcripts.forEach((t, k) => {
          const nodes = transcriptNodes(t, `c${k}`);
          const cache = new RulesCache();
          const folds = new FoldStore();
          let items: readonly ContextItem[] = [];
          for (let from = 0; from < nodes.length; from += 4) {
            try {
              items = folds.add(runPipeline(items, nodes.slice(from, from + 4), { now: from * 1000, tokenizer, historyBudget: 4000, foldedOf: folds.get, cache })).items;
            } catch (e) {
              if (e instanceof RulesOverBudgetError) return;
              throw e;
            }
            const live = items;
            compare(`${f.file} #${k} ..${from}`, () => briefWriter(live, new RulesCache())(1400), () => briefWriter(live, cache)(1400));
          }
        });
      }
    });
    expect(compared).toBeGreaterThan(100);
    expect(warm).toBeLessThan(cold / 8);
  });
});
