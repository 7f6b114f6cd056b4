import type { BenchResults } from './bench-results.js';
import { targetsTable } from './targets-table.js';

/**
 * The README's results table: ctxgit's cost against the cheapest baseline that stays under budget, its recall and
 * its requests over budget, for every corpus and budget of the run; `null` when the evaluation failed.
 * @example
 * ```ts
 * readmeTable(results); // '| corpus | budget | cost ÷ cheapest under budget (anthropic-sonnet-4.5) | … |'
 * ```
 */
export function readmeTable(results: BenchResults): string | null {
  if (!results.evaluation.ok) return null;
  const r = results.evaluation.result;
  return [
    `ctxgit defaults against the cheapest baseline that stays under budget, corpus replay (commit \`${results.stamp.commit.slice(0, 12)}\`${results.stamp.quick ? ', quick run' : ''}; details in [docs/benchmarks.md](docs/benchmarks.md)). ctxgit runs at each price model's cache prices, as a session takes its model's; the columns after the costs come from its run at the first price model's, but for the lowest recall of its runs at each model's prices:`,
    '',
    targetsTable(r),
  ].join('\n');
}
