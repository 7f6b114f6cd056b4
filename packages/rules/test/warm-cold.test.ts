import { beforeAll, describe, expect, it } from 'vitest';
import type { Node } from '@ctxgit/dag';
import { loadTokenizer, type Tokenizer } from '@ctxgit/tokenize';
import { runPipeline, RulesCache, RulesOverBudgetError, type ContextItem, type PipelineResult } from '../src/index.js';
import { loadCorpus, transcriptNodes } from './corpus-replay.js';
import { FoldStore } from './helpers.js';

const files = loadCorpus();
let tokenizer: Tokenizer;
beforeAll(async () => {
  tokenizer = await loadTokenizer('o200k_base');
});

/** Every corpus conversation's nodes, one continuing the previous one (later system prompts dropped), `passes` times over, one second apart. */
function chained(passes: number): Node[] {
  const out: Node[] = [];
  let last: string | undefined;
  for (let p = 0; p < passes; p++) {
    for (const f of files) {
      f.transcripts.forEach((t, k) => {
        const ids = new Map<string, string>();
        for (const n of transcriptNodes(t, `c${k}`)) {
          if (n.role === 'system' && out.length > 0) continue;
          const id = `n${out.length}`;
          ids.set(n.id, id);
          const { predecessor, caller, ...rest } = n;
          const mapped = caller === undefined ? undefined : ids.get(caller);
          if (n.role === 'tool' && mapped === undefined) continue;
          out.push({ ...rest, id, session: 's', seq: out.length, createdAt: out.length * 1000, ...(n.role === 'tool' ? { caller: mapped as string } : last === undefined ? {} : { predecessor: last }) });
          if (n.role !== 'tool') last = id;
        }
      });
    }
  }
  return out;
}

/** Runs `nodes` call by call with one cache, each call checked against the same run with a fresh cache; the calls made. */
function replayBoth(nodes: readonly Node[], budget: number, where: string): number {
  const cache = new RulesCache();
  const folds = new FoldStore();
  let items: readonly ContextItem[] = [];
  let from = 0;
  let calls = 0;
  for (let i = 1; i < nodes.length; i++) {
    if ((nodes[i] as Node).role !== 'assistant' || (nodes[i - 1] as Node).role === 'assistant') continue;
    const batch = nodes.slice(from, i);
    from = i;
    const ctx = { now: (batch.at(-1) as Node).createdAt, tokenizer, historyBudget: budget, foldedOf: folds.get };
    let warm: PipelineResult;
    try {
      warm = runPipeline(items, batch, { ...ctx, cache });
    } catch (e) {
      if (e instanceof RulesOverBudgetError) break;
      throw e;
    }
    const cold = runPipeline(structuredClone(items) as ContextItem[], batch, { ...ctx, cache: new RulesCache() });
    expect(warm.items, `${where}: call before ${(nodes[i] as Node).id}`).toEqual(cold.items);
    items = folds.add(warm).items;
    calls++;
  }
  return calls;
}

describe('a session that keeps its cache decides as one opened afresh', () => {
  it('the corpus chained into one long session, call by call, under 32,000 tokens', () => {
    expect(replayBoth(chained(1), 32_000, 'chained')).toBeGreaterThan(500);
  });

  for (const budget of [4000, 8000, 16_000]) {
    it(`every corpus conversation, call by call, under ${budget} tokens`, () => {
      let calls = 0;
      for (const f of files) f.transcripts.forEach((t, k) => void (calls += replayBoth(transcriptNodes(t, `c${k}`), budget, `${f.file} #${k}`)));
      expect(calls).toBeGreaterThan(1000);
    });
  }
});
