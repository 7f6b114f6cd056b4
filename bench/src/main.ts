/**
 * `pnpm bench [--quick] [--topics a,b|none] [--no-eval] [--sample N] [--out-dir DIR]`: runs every per-topic
 * benchmark and the policy evaluation, writes bench/results/latest.json, docs/benchmarks.md (with its SVG
 * charts) and the README table, and exits non-zero when a topic is missing or failed.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs } from './report/parse-bench-args.js';
import { runBench } from './report/run-bench.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = parseBenchArgs(process.argv.slice(2));
const corpusDir = resolve(root, '../shared/corpus');
if (!existsSync(corpusDir)) throw new Error(`corpus not found at ${corpusDir}: check out shared/ next to the repository`);
const outcome = await runBench({
  quick: args.quick,
  ...(args.topics === undefined ? {} : { topics: args.topics }),
  evaluation: args.evaluation,
  evalOptions: args.sample === undefined ? {} : { sample: args.sample },
  root,
  corpusDir,
  ...(args.outDir === undefined ? {} : { outDir: resolve(args.outDir) }),
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`wrote ${outcome.json}, ${outcome.report.page}, ${outcome.report.charts.length} charts${outcome.report.readme === null ? '' : `, ${outcome.report.readme}`}\n`);
if (outcome.failures.length > 0) {
  process.stderr.write(`FAILED: ${outcome.failures.join(', ')}\n`);
  process.exitCode = 1;
}
