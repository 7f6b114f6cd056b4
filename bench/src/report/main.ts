/**
 * Regenerates docs/benchmarks.md, its charts and the README table from an existing results JSON, without
 * re-running anything: `node --conditions=@ctxgit/source --import tsx bench/src/report/main.ts [results.json]`.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import type { BenchResults } from './bench-results.js';
import { writeReport } from './write-report.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const input = resolve(process.argv[2] ?? `${root}bench/results/latest.json`);
const results = JSON.parse(await readFile(input, 'utf8')) as BenchResults;
const written = await writeReport(results, root);
process.stdout.write(`wrote ${written.page}, ${written.charts.length} charts${written.readme === null ? '' : `, ${written.readme}`} from ${input}\n`);
