import type { CachePricing } from './pricing.js';
import type { RequestBill } from './price-conversation.js';
import type { CallRecord } from './replay-policy.js';
import type { CostFigures, PolicySummary } from './summary.js';
import { percentile } from './percentile.js';

interface Cost {
  units: number;
  cacheRead: number;
  cacheWrite: number;
  uncached: number;
}

/** Sums the records of many conversations for one policy, budget and corpus. */
export class SummaryAccumulator {
  private conversations = 0;
  private readonly tokens: number[] = [];
  private violations = 0;
  private invalid = 0;
  private breaks = 0;
  private rewritten = 0;
  private refusals = 0;
  private firstRefusal: string | null = null;
  private userMisses = 0;
  private systemMisses = 0;
  private sharedTokens = 0;
  private sharedBytes = 0;
  private bytes = 0;
  private reused = 0;
  private visible = 0;
  private reusedShaped = 0;
  private visibleShaped = 0;
  private readonly costs = new Map<string, Cost>();
  private readonly pricedRecall = new Map<string, { reused: number; visible: number }>();

  constructor(
    readonly policy: string,
    readonly budget: number,
    readonly corpus: string,
    private readonly pricings: readonly CachePricing[],
  ) {
    for (const p of pricings) this.costs.set(p.id, { units: 0, cacheRead: 0, cacheWrite: 0, uncached: 0 });
  }

  /**
   * Adds one conversation: its call records and their bills per price model id; for a policy run at each price
   * model's prices, `priced` holds each run's records (for its recall).
   */
  add(records: readonly CallRecord[], bills: ReadonlyMap<string, readonly RequestBill[]>, priced?: ReadonlyMap<string, readonly CallRecord[]>): void {
    this.conversations++;
    for (const r of records) {
      this.tokens.push(r.tokens);
      if (r.overBudget) this.violations++;
      if (r.invalid) this.invalid++;
      if (r.prefixBreak) this.breaks++;
      this.rewritten += r.rewrittenTokens;
      if (r.refused !== null) {
        this.refusals++;
        this.firstRefusal ??= r.refused;
      }
      if (!r.latestUserPresent) this.userMisses++;
      if (!r.systemPresent) this.systemMisses++;
      this.sharedTokens += r.sharedPrefixTokens;
      this.sharedBytes += r.sharedPrefixBytes;
      this.bytes += r.bytes;
      this.reused += r.reused;
      this.visible += r.visible;
      this.reusedShaped += r.reusedShaped;
      this.visibleShaped += r.visibleShaped;
    }
    for (const [id, list] of priced ?? []) {
      const r = this.pricedRecall.get(id) ?? { reused: 0, visible: 0 };
      for (const x of list) {
        r.reused += x.reused;
        r.visible += x.visible;
      }
      this.pricedRecall.set(id, r);
    }
    for (const [id, list] of bills) {
      const c = this.costs.get(id);
      if (c === undefined) continue;
      for (const b of list) {
        c.units += b.units;
        c.cacheRead += b.cacheRead;
        c.cacheWrite += b.cacheWrite;
        c.uncached += b.uncached;
      }
    }
  }

  /** The summary; `full` is the full-history summary of the same budget and corpus (for the ratios). */
  summarize(full: PolicySummary | null): PolicySummary {
    const sorted = [...this.tokens].sort((a, b) => a - b);
    const total = sorted.reduce((a, b) => a + b, 0);
    const calls = sorted.length;
    const cost: Record<string, CostFigures> = {};
    for (const p of this.pricings) {
      const c = this.costs.get(p.id) as Cost;
      cost[p.id] = { ...c, usd: (c.units * p.usdPerMTok) / 1e6 };
    }
    const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);
    const costRatio: Record<string, number> = {};
    for (const p of this.pricings) costRatio[p.id] = full === null ? 1 : ratio((cost[p.id] as CostFigures).units, full.cost[p.id]?.units ?? 0);
    return {
      policy: this.policy,
      budget: this.budget,
      corpus: this.corpus,
      conversations: this.conversations,
      calls,
      inputTokens: { total, meanPerCall: ratio(total, calls), p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[calls - 1] ?? 0 },
      budgetViolations: { count: this.violations, share: ratio(this.violations, calls) },
      refusals: { count: this.refusals, first: this.firstRefusal },
      invalidRequests: this.invalid,
      prefixBreaks: this.breaks,
      rewrittenTokens: this.rewritten,
      latestUser: { alwaysPresent: this.userMisses === 0, misses: this.userMisses },
      system: { alwaysPresent: this.systemMisses === 0, misses: this.systemMisses },
      cachedPrefixShare: { tokens: ratio(this.sharedTokens, total), bytes: ratio(this.sharedBytes, this.bytes) },
      dependencyRecall: { reused: this.reused, visible: this.visible, share: this.reused === 0 ? 1 : this.visible / this.reused },
      identifierRecall: { reused: this.reusedShaped, visible: this.visibleShaped, share: this.reusedShaped === 0 ? 1 : this.visibleShaped / this.reusedShaped },
      ...(this.pricedRecall.size === 0
        ? {}
        : { recallByPrice: Object.fromEntries([...this.pricedRecall].map(([id, r]) => [id, { ...r, share: r.reused === 0 ? 1 : r.visible / r.reused }])) }),
      cost,
      ratioToFull: { inputTokens: full === null ? 1 : ratio(total, full.inputTokens.total), cost: costRatio },
    };
  }
}
