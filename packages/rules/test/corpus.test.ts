import { beforeAll, describe, expect, it } from 'vitest';
import { loadTokenizer, type Tokenizer } from '@ctxgit/tokenize';
import { loadCorpus, replay, transcriptNodes } from './corpus-replay.js';

// Figures per corpus: `node --conditions=@ctxgit/source --import tsx packages/rules/test/corpus-report.ts`
const files = loadCorpus();
let tokenizer: Tokenizer;
beforeAll(async () => {
  tokenizer = await loadTokenizer('o200k_base');
});

describe('corpus replay, call by call (items before each assistant turn)', () => {
  it('finds the three corpora', () => {
    expect(new Set(files.map((f) => f.corpus))).toEqual(new Set(['claude-code', 'swe-agent', 'tau-bench-airline']));
    expect(files.every((f) => f.transcripts.length > 0)).toBe(true);
  });

  for (const budget of [4000, 16_000]) {
    for (const f of files) {
      it(`${f.corpus}/${f.file} under ${budget} tokens: under the emergency mark, latest user and system kept, chain identifiers visible`, () => {
        let calls = 0;
        f.transcripts.forEach((t, k) => {
          const r = replay(transcriptNodes(t, `c${k}`), budget, tokenizer);
          expect(r.violations).toEqual([]);
          expect(r.maxHistory).toBeLessThanOrEqual(Math.floor(0.95 * budget));
          expect(r.keptTokens).toBeLessThanOrEqual(r.fullTokens);
          calls += r.calls;
        });
        expect(calls).toBeGreaterThan(0);
      });
    }
  }
});
