import { loadTokenizer } from '@ctxgit/tokenize';
import { loadCorpus, replay, transcriptNodes, type ReplayFigures } from './corpus-replay.js';

/** Prints token reduction and identifier retention per corpus and budget. Run from the repo root:
 * `node --conditions=@ctxgit/source --import tsx packages/rules/test/corpus-report.ts` */
const tokenizer = await loadTokenizer('o200k_base');
const files = loadCorpus();
const rows: string[] = [];
for (const budget of [4000, 16_000]) {
  const byCorpus = new Map<string, ReplayFigures>();
  for (const f of files) {
    f.transcripts.forEach((t, k) => {
      const r = replay(transcriptNodes(t, `${f.file}_${k}`.replace(/[^A-Za-z0-9_-]/g, '_')), budget, tokenizer);
      const acc = byCorpus.get(f.corpus) ?? { calls: 0, fullTokens: 0, keptTokens: 0, maxHistory: 0, reused: 0, reusedVisible: 0, chainReused: 0, chainVisible: 0, chainLostToCap: 0, folds: 0, violations: [] };
      for (const key of ['calls', 'fullTokens', 'keptTokens', 'reused', 'reusedVisible', 'chainReused', 'chainVisible', 'chainLostToCap', 'folds'] as const) acc[key] += r[key];
      acc.maxHistory = Math.max(acc.maxHistory, r.maxHistory);
      acc.violations.push(...r.violations);
      byCorpus.set(f.corpus, acc);
    });
  }
  for (const [corpus, a] of byCorpus) {
    const pct = (x: number, y: number): string => (y === 0 ? 'n/a' : `${((100 * x) / y).toFixed(1)}%`);
    rows.push(
      [corpus.padEnd(18), String(budget).padStart(6), String(a.calls).padStart(6), pct(a.fullTokens - a.keptTokens, a.fullTokens).padStart(8), String(a.maxHistory).padStart(7), String(a.folds).padStart(6),
        `${a.reusedVisible}/${a.reused} ${pct(a.reusedVisible, a.reused)}`.padStart(20), `${a.chainVisible}/${a.chainReused} ${pct(a.chainVisible, a.chainReused)}`.padStart(18), String(a.chainLostToCap).padStart(6), String(a.violations.length).padStart(5)].join(' '),
    );
    for (const v of a.violations.slice(0, 5)) rows.push(`    ! ${v}`);
  }
}
process.stdout.write(`corpus             budget  calls  reduced maxHist  folds     reused kept (all)  reused kept (chain)  capLost viol\n${rows.join('\n')}\n`);
