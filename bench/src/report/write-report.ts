import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchResults } from './bench-results.js';
import { benchmarksPage } from './benchmarks-page.js';
import { readmeTable } from './readme-table.js';
import { replaceBetweenMarkers } from './replace-between-markers.js';

/** What {@link writeReport} wrote, relative to the root. */
export interface ReportFiles {
  readonly page: string;
  readonly charts: readonly string[];
  /** `README.md` when its table was updated, else `null` (no markers). */
  readonly readme: string | null;
}

/**
 * Writes `docs/benchmarks.md`, `docs/benchmarks/*.svg` (removing generated charts of earlier runs that this
 * one no longer has) and the README's results table (only between its markers, when they exist) under
 * `root`, from the results alone.
 * @example
 * ```ts
 * await writeReport(results, '/work/main');
 * ```
 */
export async function writeReport(results: BenchResults, root: string): Promise<ReportFiles> {
  const page = benchmarksPage(results);
  const chartDir = join(root, 'docs', 'benchmarks');
  await mkdir(chartDir, { recursive: true });
  const current = new Set(page.charts.map((c) => c.file));
  for (const file of await readdir(chartDir)) if (/^(eval|topic)-.*\.svg$/.test(file) && !current.has(file)) await rm(join(chartDir, file));
  for (const chart of page.charts) await writeFile(join(chartDir, chart.file), chart.svg);
  await writeFile(join(root, 'docs', 'benchmarks.md'), page.markdown);
  let readme: string | null = null;
  const table = readmeTable(results);
  const readmePath = join(root, 'README.md');
  const text = await readFile(readmePath, 'utf8').catch(() => null);
  if (table !== null && text !== null) {
    const next = replaceBetweenMarkers(text, table);
    if (next !== null) {
      if (next !== text) await writeFile(readmePath, next);
      readme = 'README.md';
    }
  }
  return { page: 'docs/benchmarks.md', charts: page.charts.map((c) => `docs/benchmarks/${c.file}`), readme };
}
