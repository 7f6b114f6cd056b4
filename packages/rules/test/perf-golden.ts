/**
 * Golden digest of the pipeline over the corpus: every transcript of ../shared/corpus replayed call by call
 * (the nodes before each assistant turn) at history budgets 4,000 and 16,000, and a sha256 over the canonical
 * JSON of every result (items, totals, firstChangedIndex, report), or of the error that stopped a replay.
 * Used to check that performance work leaves every output identical.
 *
 * `node --conditions=@ctxgit/source --import tsx packages/rules/test/perf-golden.ts`
 */
import { createHash } from 'node:crypto';
import { loadTokenizer } from '@ctxgit/tokenize';
import type { Node } from '@ctxgit/dag';
import { runPipeline, RulesCache, type ContextItem } from '../src/index.js';
import { loadCorpus, transcriptNodes } from './corpus-replay.js';
import { FoldStore } from './helpers.js';

const canonical = (v: unknown): string => {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
};

const tokenizer = await loadTokenizer('o200k_base');
const all = createHash('sha256');
let calls = 0;
const t0 = performance.now();
for (const f of loadCorpus()) {
  const per = createHash('sha256');
  f.transcripts.forEach((t, k) => {
    const nodes = transcriptNodes(t, `c${k}`);
    for (const budget of [4000, 16_000]) {
      let items: readonly ContextItem[] = [];
      const folds = new FoldStore();
      const cache = new RulesCache();
      let from = 0;
      for (let i = 1; i < nodes.length; i++) {
        if ((nodes[i] as Node).role !== 'assistant') continue;
        const batch = nodes.slice(from, i);
        from = i;
        if (batch.length === 0) continue;
        try {
          const r = folds.add(runPipeline(items, batch, { now: (batch.at(-1) as Node).createdAt, tokenizer, historyBudget: budget, foldedOf: folds.get, cache }));
          per.update(canonical({ items: r.items, folds: [...r.folds], totalTokens: r.totalTokens, historyTokens: r.historyTokens, firstChangedIndex: r.firstChangedIndex, report: r.report }));
          items = r.items;
          calls++;
        } catch (e) {
          per.update(`error:${(e as Error).name}:${(e as Error).message}`);
          break;
        }
      }
    }
  });
  const d = per.digest('hex');
  all.update(d);
  console.log(`${f.corpus}/${f.file}  ${d.slice(0, 16)}`);
}
console.log(`calls ${calls}  ${Math.round(performance.now() - t0)} ms`);
console.log(`golden ${all.digest('hex')}`);
