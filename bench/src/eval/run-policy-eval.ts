import { itemFromNode } from '@ctxgit/rules';
import { loadTokenizer } from '@ctxgit/tokenize';
import { chainSessions } from './chain-sessions.js';
import { costFloor } from './cost-floor.js';
import { DEFAULT_BUDGETS, LONG_BUDGETS, LONG_CALLS, QUICK_BUDGETS, QUICK_LONG_BUDGETS, QUICK_LONG_CALLS } from './eval-options.js';
import type { EvalOptions } from './eval-options.js';
import type { EvalResult } from './eval-result.js';
import { evalPolicies } from './eval-policies.js';
import { loadCorpus } from './load-corpus.js';
import { prepareCalls } from './prepare-calls.js';
import { priceConversation } from './price-conversation.js';
import type { RequestBill } from './price-conversation.js';
import { PRICINGS } from './pricing.js';
import type { CachePricing } from './pricing.js';
import { replayPolicy } from './replay-policy.js';
import type { CallRecord } from './replay-policy.js';
import { requestRenderer } from './request-renderer.js';
import { SummaryAccumulator } from './summary-accumulator.js';
import type { PolicySummary } from './summary.js';
import { createTokenMeter, OVERHEAD } from './token-meter.js';
import type { Transcript } from './transcript.js';

/** Conversations per corpus in a quick run. */
export const QUICK_SAMPLE = 12;

/**
 * The policy evaluation: every corpus transcript (or an even sample) replayed call by call through every
 * policy under every budget, with tokens, billed cost, cached-prefix share, dependency recall, budget
 * violations and the presence of the latest user turn and the system items.
 * @example
 * ```ts
 * const result = await runPolicyEval({ quick: true, corpusDir: '/work/shared/corpus' });
 * result.summaries.find((s) => s.policy === 'ctxgit' && s.corpus === 'all');
 * ```
 */
export async function runPolicyEval(options: EvalOptions): Promise<EvalResult> {
  const log = options.log ?? (() => undefined);
  const budgets = options.budgets ?? (options.quick ? QUICK_BUDGETS : DEFAULT_BUDGETS);
  const longBudgets = options.longBudgets ?? (options.quick ? QUICK_LONG_BUDGETS : LONG_BUDGETS);
  const sample = options.sample ?? (options.quick ? QUICK_SAMPLE : Number.POSITIVE_INFINITY);
  const tokenizer = await loadTokenizer('o200k_base');
  const renderer = requestRenderer(tokenizer);
  // Baselines fit their budget by the count of the rendered body, the count every policy is scored by.
  const meter = createTokenMeter(tokenizer, OVERHEAD, (items) => renderer.count(items));
  const policies = (await evalPolicies()).filter((p) => options.policies === undefined || options.policies.includes(p.id));
  const wanted = (name: string): boolean => options.corpora === undefined || options.corpora.includes(name);
  const corpora = (await loadCorpus(options.corpusDir, sample)).filter((c) => wanted(c.name));
  const accumulators = new Map<string, SummaryAccumulator>();
  const acc = (policy: string, budget: number, corpus: string): SummaryAccumulator => {
    const key = `${policy}\0${budget}\0${corpus}`;
    let a = accumulators.get(key);
    if (a === undefined) {
      a = new SummaryAccumulator(policy, budget, corpus, PRICINGS);
      accumulators.set(key, a);
    }
    return a;
  };
  const floors: Record<string, Record<string, number>> = {};
  const addFloor = (corpus: string, units: Record<string, number>): void => {
    const f = (floors[corpus] ??= {});
    for (const [id, u] of Object.entries(units)) f[id] = (f[id] ?? 0) + u;
  };
  const corpusInfo: EvalResult['corpora'][number][] = [];
  const replayAll = async (transcript: Transcript, name: string, atBudgets: readonly number[], inAll: boolean): Promise<number> => {
    const prepared = prepareCalls(transcript, (node) => itemFromNode(node, tokenizer));
    const floor = costFloor(prepared, meter, PRICINGS);
    addFloor(name, floor);
    if (inAll) addFloor('all', floor);
    for (const budget of atBudgets) {
      for (const policy of policies) {
        const at = policy.at;
        const records = await replayPolicy(prepared, at === undefined ? policy : at(PRICINGS[0] as CachePricing), budget, meter, renderer.render);
        const bills = new Map<string, RequestBill[]>();
        const runs = new Map<string, readonly CallRecord[]>();
        for (const [i, p] of PRICINGS.entries()) {
          const priced = at === undefined || i === 0 ? records : await replayPolicy(prepared, at(p), budget, meter, renderer.render);
          bills.set(p.id, priceConversation(priced.map((r) => r.shape), p));
          if (at !== undefined) runs.set(p.id, priced);
        }
        acc(policy.id, budget, name).add(records, bills, runs);
        if (inAll) acc(policy.id, budget, 'all').add(records, bills, runs);
      }
    }
    return prepared.length;
  };
  for (const corpus of corpora) {
    let calls = 0;
    for (const transcript of corpus.transcripts) calls += await replayAll(transcript, corpus.name, budgets, true);
    log(`evaluation: ${corpus.name}: ${corpus.transcripts.length} conversations, ${calls} calls`);
    corpusInfo.push({
      name: corpus.name,
      conversations: corpus.conversations,
      replayed: corpus.transcripts.length,
      calls,
      timestamps: corpus.transcripts.some((t) => t.timestamps),
      skipped: Object.values(corpus.skipped).reduce((a, b) => a + b, 0),
      skippedReasons: corpus.skipped,
    });
  }
  // Each corpus chained into one long session (the whole corpus, not the sample), at the long budgets.
  const longNames: string[] = [];
  if (longBudgets.length > 0) {
    for (const corpus of (await loadCorpus(options.corpusDir, Number.POSITIVE_INFINITY)).filter((c) => wanted(c.name))) {
      const name = `long-${corpus.name}`;
      const calls = await replayAll(chainSessions(name, corpus.transcripts, options.longCalls ?? (options.quick ? QUICK_LONG_CALLS : LONG_CALLS)), name, longBudgets, false);
      log(`evaluation: ${name}: one session, ${calls} calls`);
      corpusInfo.push({ name, conversations: 1, replayed: 1, calls, timestamps: false, skipped: 0 });
      longNames.push(name);
    }
  }
  const summaries: PolicySummary[] = [];
  const groups = [...['all', ...corpora.map((c) => c.name)].map((c) => [c, budgets] as const), ...longNames.map((c) => [c, longBudgets] as const)];
  for (const [corpus, atBudgets] of groups) {
    for (const budget of atBudgets) {
      const full = acc(policies[0]?.id ?? '', budget, corpus).summarize(null);
      summaries.push(full);
      for (const policy of policies.slice(1)) summaries.push(acc(policy.id, budget, corpus).summarize(full));
    }
  }
  return {
    encoding: meter.encoding,
    budgets,
    longBudgets,
    policies: policies.map((p) => ({ id: p.id, label: p.label, description: p.description })),
    pricings: PRICINGS,
    corpora: corpusInfo,
    renderFallbacks: renderer.fallbacks(),
    summaries,
    floors,
  };
}
