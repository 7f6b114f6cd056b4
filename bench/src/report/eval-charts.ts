import type { EvalResult } from '../eval/eval-result.js';
import type { PolicySummary } from '../eval/summary.js';
import { barChart } from './bar-chart.js';
import { formatBudget, formatPercent, formatRatio } from './format.js';

/** One generated chart: its file name under `docs/benchmarks/`, its title and SVG text. */
export interface Chart {
  readonly file: string;
  readonly title: string;
  readonly svg: string;
}

/**
 * The charts of the policy evaluation (all corpora): one bar per policy and budget.
 * @example
 * ```ts
 * evalCharts(result).map((c) => c.file); // ['eval-input-tokens.svg', …]
 * ```
 */
export function evalCharts(result: EvalResult): Chart[] {
  const find = (policy: string, budget: number): PolicySummary | undefined =>
    result.summaries.find((s) => s.corpus === 'all' && s.policy === policy && s.budget === budget);
  const chart = (file: string, title: string, pick: (s: PolicySummary) => number, ratio: boolean): Chart => ({
    file,
    title,
    svg: barChart({
      title,
      categories: result.policies.map((p) => p.label),
      series: result.budgets.map((b) => ({
        name: `budget ${formatBudget(b)}`,
        values: result.policies.map((p) => {
          const s = find(p.id, b);
          return s === undefined ? null : pick(s);
        }),
      })),
      format: ratio ? formatRatio : formatPercent,
      ...(ratio ? { reference: { value: 1, label: 'full history' } } : { max: 1 }),
    }),
  });
  const charts = [
    chart('eval-input-tokens.svg', 'Input tokens, relative to the full history', (s) => s.ratioToFull.inputTokens, true),
    ...result.pricings.map((p) =>
      chart(`eval-cost-${p.id}.svg`, `Billed input cost, relative to the full history: ${p.id}`, (s) => s.ratioToFull.cost[p.id] ?? 0, true),
    ),
    chart('eval-cached-prefix.svg', 'Share of each request that repeats the previous request (tokens)', (s) => s.cachedPrefixShare.tokens, false),
    chart('eval-dependency-recall.svg', 'Dependency recall: reused tool identifiers still visible', (s) => s.dependencyRecall.share, false),
    chart('eval-budget-violations.svg', 'Requests over the budget', (s) => s.budgetViolations.share, false),
  ];
  return charts;
}
