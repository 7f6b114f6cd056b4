/**
 * A subset of the policy evaluation, for tuning the rules: ctxgit's defaults and the baselines (not the ablations)
 * on chosen corpora and budgets, printed as ctxgit's cost against the cheapest baseline under budget (at the first
 * price model's prices, or `--price`'s), recall, prefix breaks and requests over budget. Writes nothing.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/eval-quick.ts [--corpora a,b] [--budgets 4000,8000]
 * [--long 32000,64000] [--sample 6] [--price openai-gpt-4.1]` (`--budgets none` or `--long none` skips that part).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPolicyEval } from './eval/run-policy-eval.js';
import { scriptArg } from './script-arg.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => scriptArg(argv, name);
const numbers = (v: string | undefined, fallback: readonly number[]): readonly number[] =>
  v === undefined ? fallback : v === 'none' ? [] : v.split(',').map(Number);
const corpora = arg('corpora')?.split(',');
const result = await runPolicyEval({
  quick: false,
  corpusDir: resolve(root, '../shared/corpus'),
  sample: Number(arg('sample') ?? 6),
  budgets: numbers(arg('budgets'), [4000, 8000, 16_000]),
  longBudgets: numbers(arg('long'), [32_000, 64_000, 128_000]),
  policies: ['full-history', 'sliding-window', 'tool-clearing', 'tool-clearing-at-least', 'masking-3', 'masking-5', 'masking-10', 'ctxgit'],
  ...(corpora === undefined ? {} : { corpora }),
  log: (line) => process.stderr.write(`${line}\n`),
});
const price = arg('price') ?? result.pricings[0]?.id ?? '';
if (!result.pricings.some((p) => p.id === price)) throw new Error(`--price: expected one of ${result.pricings.map((p) => p.id).join(', ')}`);
const rows: string[] = [];
for (const corpus of [...new Set(result.summaries.map((s) => s.corpus))]) {
  for (const budget of [...new Set(result.summaries.filter((s) => s.corpus === corpus).map((s) => s.budget))]) {
    const at = result.summaries.filter((s) => s.corpus === corpus && s.budget === budget);
    const ours = at.find((s) => s.policy === 'ctxgit');
    if (ours === undefined) continue;
    const under = at.filter((s) => s.policy !== 'ctxgit' && s.budgetViolations.count === 0);
    const best = under.reduce<(typeof under)[number] | undefined>((m, s) => (m === undefined || (s.cost[price]?.units ?? Infinity) < (m.cost[price]?.units ?? Infinity) ? s : m), undefined);
    const ratio = best === undefined ? NaN : (ours.cost[price]?.units ?? 0) / (best.cost[price]?.units ?? 1);
    rows.push(
      `${corpus.padEnd(24)} ${String(budget / 1000).padStart(4)}k cost ${ratio.toFixed(3)} (${best?.policy ?? 'none'}, breaks ${best?.prefixBreaks ?? '-'}) ` +
        `recall ${ours.dependencyRecall.share.toFixed(3)} shaped ${ours.identifierRecall?.share.toFixed(3) ?? '-'} at ${price} ${ours.recallByPrice?.[price]?.share.toFixed(3) ?? '-'} breaks ${ours.prefixBreaks} over ${ours.budgetViolations.count} refused ${ours.refusals.count} missUser ${ours.latestUser.misses}`,
    );
  }
}
process.stdout.write(`${rows.join('\n')}\n`);
