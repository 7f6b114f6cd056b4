import type { BenchResults } from './bench-results.js';
import { formatBudget, formatPercent, formatRatio } from './format.js';
import { markdownTable } from './markdown-table.js';

/**
 * The README's results table: every policy at the middle budget, all corpora; `null` when the evaluation failed.
 * @example
 * ```ts
 * readmeTable(results); // '| policy | input tokens vs full | … |'
 * ```
 */
export function readmeTable(results: BenchResults): string | null {
  if (!results.evaluation.ok) return null;
  const r = results.evaluation.result;
  const budget = r.budgets[Math.floor((r.budgets.length - 1) / 2)];
  if (budget === undefined) return null;
  const anthropic = r.pricings[0];
  const rows = r.policies.flatMap((p) => {
    const s = r.summaries.find((x) => x.policy === p.id && x.corpus === 'all' && x.budget === budget);
    if (s === undefined) return [];
    return [[p.label, formatRatio(s.ratioToFull.inputTokens), anthropic === undefined ? '' : formatRatio(s.ratioToFull.cost[anthropic.id] ?? 0), formatPercent(s.dependencyRecall.share), formatPercent(s.budgetViolations.share)]];
  });
  return [
    `Corpus replay, budget ${formatBudget(budget)} tokens (commit \`${results.stamp.commit.slice(0, 12)}\`${results.stamp.quick ? ', quick run' : ''}; details in [docs/benchmarks.md](docs/benchmarks.md)):`,
    '',
    markdownTable(['policy', 'input tokens vs full', `cost vs full (${anthropic?.id ?? ''})`, 'dependency recall', 'requests over budget'], rows),
  ].join('\n');
}
