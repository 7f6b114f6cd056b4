import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { barChart } from '../src/report/bar-chart.js';
import type { BenchResults } from '../src/report/bench-results.js';
import { benchmarksPage } from '../src/report/benchmarks-page.js';
import { jsonTables } from '../src/report/json-tables.js';
import { readmeTable } from '../src/report/readme-table.js';
import { README_END, README_START, replaceBetweenMarkers } from '../src/report/replace-between-markers.js';
import { writeReport } from '../src/report/write-report.js';
import { checkWellFormedXml } from './fixtures/check-xml.js';

const fixture = fileURLToPath(new URL('./fixtures/results.json', import.meta.url));
const results = JSON.parse(await readFile(fixture, 'utf8')) as BenchResults;

describe('benchmarksPage from a fixture JSON', () => {
  const { markdown, charts } = benchmarksPage(results);

  it('stamps the page with the commit, the corpus digest and the machine', () => {
    expect(markdown).toContain(`| 0123456789abcdef0123456789abcdef01234567 | no | ${results.stamp.corpusDigest} | 27 |`);
    expect(markdown).toContain('| 0.5 / 0.4 / 0.3 |');
    expect(markdown).toContain('Test CPU');
  });

  it("says which run measured a topic merged in from another run, and nothing for a topic of the page's run", () => {
    const [first] = Object.keys(results.topics);
    const topics = { ...results.topics, [first as string]: { ...(results.topics[first as string] as object), stamp: { ...results.stamp, commit: 'fedcba9876543210fedcba9876543210fedcba98', date: '2026-01-02T03:04:05.000Z' } } };
    const page = benchmarksPage({ ...results, topics } as BenchResults).markdown;
    expect(page).toContain("Measured by another run than the page's: commit `fedcba987654`, 2026-01-02T03:04:05.000Z, load at start 0.50 / 0.40 / 0.30.");
    expect(page.match(/Measured by another run/g)).toHaveLength(1);
    expect(markdown).not.toContain('Measured by another run');
  });

  it('has one policy table per budget, with a row per policy', () => {
    expect(markdown).toContain('### All corpora, budget 2k tokens');
    expect(markdown).toContain('### All corpora, budget 4k tokens');
    expect(markdown).toContain(
      '| policy | tokens / call | p95 | tokens vs full | cost vs full (anthropic-sonnet-4.5) | cost vs full (openai-gpt-4.1) | cost vs full (openai-gpt-4o) | cached prefix | dependency recall | identifier-shaped recall | over budget | refused | invalid | prefix breaks | tokens rewritten | latest user always | system always |',
    );
    const full = results.evaluation.ok ? results.evaluation.result.summaries.find((s) => s.policy === 'full-history' && s.corpus === 'all' && s.budget === 2000) : undefined;
    expect(full).toBeDefined();
    expect(markdown).toMatch(/\| Full history \| [\d,]+ \| [\d,]+ \| 1\.00x \| 1\.00x \| 1\.00x \| 1\.00x \|/);
    for (const label of ['Sliding window', 'Tool-result clearing (keep 3)', 'ctxgit defaults', 'ctxgit, no graph protection', 'ctxgit, no cache epochs', 'ctxgit, no folding']) {
      expect(markdown).toContain(`| ${label} |`);
    }
  });

  it('renders topic results as tables and names failed topics', () => {
    expect(markdown).toContain('### Graph analysis (critical chain + continuation view) (`bench/src/graph.ts`)');
    expect(markdown).toContain('| messages | medianMs | p95Ms | zigMs |\n| --- | --- | --- | --- |\n| 21 | 0.012 | 0.02 | 0.018 |');
    expect(markdown).toContain('**Failed:** Error: bench/src/git.ts does not export runGitBench');
  });

  it('explains the metrics, the price model with its sources, and what the numbers do not show', () => {
    expect(markdown).toContain('## What each metric means');
    expect(markdown).toContain('## The price model');
    expect(markdown).toContain('https://platform.openai.com/docs/pricing');
    expect(markdown).toContain('https://docs.claude.com/en/docs/build-with-claude/prompt-caching');
    expect(markdown).toContain('## What the numbers do not show');
  });

  it('links every chart, and every chart is a well-formed SVG', () => {
    expect(charts.map((c) => c.file)).toEqual([
      'topic-graph-chains.svg',
      'eval-input-tokens.svg',
      'eval-cost-anthropic-sonnet-4.5.svg',
      'eval-cost-openai-gpt-4.1.svg',
      'eval-cost-openai-gpt-4o.svg',
      'eval-cached-prefix.svg',
      'eval-dependency-recall.svg',
      'eval-budget-violations.svg',
    ]);
    for (const c of charts) {
      expect(markdown).toContain(`(benchmarks/${c.file})`);
      expect(() => checkWellFormedXml(c.svg)).not.toThrow();
      expect(c.svg).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    }
  });

  it('is deterministic', () => {
    expect(benchmarksPage(results)).toEqual({ markdown, charts });
  });
});

describe('barChart', () => {
  it('escapes labels and draws one bar per value', () => {
    const svg = barChart({ title: 'a < b & "c"', categories: ['x&y', 'z'], series: [{ name: 's', values: [0.5, null] }], format: String, max: 1 });
    checkWellFormedXml(svg);
    expect(svg).toContain('<title>a &lt; b &amp; &quot;c&quot;</title>');
    expect(svg.match(/<rect x="210"/g)?.length).toBe(2); // one bar + one legend swatch
    expect(svg).toContain('width="220" height="10" fill="#4e79a7"');
  });
});

describe('topic charts', () => {
  it('draws the medians of each topic table on a log scale, labelled by the non-measure fields', () => {
    const chart = benchmarksPage(results).charts.find((c) => c.file === 'topic-graph-chains.svg');
    expect(chart?.title).toBe('graph / chains: medianMs (log scale)');
    expect(chart?.svg).toContain('text-anchor="end">messages 21</text>');
    expect(chart?.svg).toContain('text-anchor="end">messages 501</text>');
  });
});

describe('jsonTables', () => {
  it('turns scalars (and objects of scalars) into a figure table, objects of rows into tables, the rest into sections', () => {
    expect(jsonTables({ medianMs: 1.5, big: 12345.6, ok: true, memo: { hitNs: 2 } }, 4)).toBe(
      '| figure | value |\n| --- | --- |\n| medianMs | 1.5 |\n| big | 12,346 |\n| ok | true |\n| memo.hitNs | 2 |',
    );
    expect(jsonTables({ enc: { o200k: { a: { mbps: 2 }, b: { mbps: 3 } } } }, 4)).toBe(
      '#### enc\n\n##### o200k\n\n| name | mbps |\n| --- | --- |\n| a | 2 |\n| b | 3 |',
    );
  });
});

describe('the README table', () => {
  it('is replaced only between the markers', () => {
    const readme = `# ctxgit\n\n${README_START}\nold\n${README_END}\n\nmore\n`;
    expect(replaceBetweenMarkers(readme, 'new')).toBe(`# ctxgit\n\n${README_START}\nnew\n${README_END}\n\nmore\n`);
    expect(replaceBetweenMarkers('# no markers\n', 'new')).toBeNull();
    expect(replaceBetweenMarkers(`${README_END}\n${README_START}`, 'new')).toBeNull();
  });

  it('compares ctxgit with the cheapest baseline under budget, for every corpus and budget', () => {
    const table = readmeTable(results) ?? '';
    expect(table).toContain('ctxgit defaults against the cheapest baseline that stays under budget');
    const r = results.evaluation.ok ? results.evaluation.result : undefined;
    // A header, a separator, and one row per corpus (all included) and budget.
    expect(table.split('\n').filter((l) => l.startsWith('| ')).length).toBe(2 + (1 + (r?.corpora.length ?? 0)) * (r?.budgets.length ?? 0));
    expect(table).toMatch(/\| all \| 2k \| (none|[\d.]+x \([a-z-]+\)) \|/);
  });

  it('names the cost floor over the same baseline when the result has it', () => {
    if (!results.evaluation.ok) throw new Error('the fixture has an evaluation');
    const r = results.evaluation.result;
    const at = r.summaries.filter((s) => s.corpus === 'all' && s.budget === 4000 && !s.policy.startsWith('ctxgit') && s.budgetViolations.count === 0);
    const id = r.pricings[0]?.id as string;
    const best = Math.min(...at.map((s) => s.cost[id]?.units ?? Infinity));
    const floors = { all: Object.fromEntries(r.pricings.map((p) => [p.id, best / 4])) };
    const table = readmeTable({ ...results, evaluation: { ...results.evaluation, result: { ...r, floors } } }) ?? '';
    expect(table).toMatch(/\| all \| 4k \| [\d.]+x \([a-z0-9-]+; floor 0\.25x\) \|/);
    expect(readmeTable(results)).not.toContain('floor');
  });

  it('writeReport writes the page, the charts, and the README only when it has markers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ctxgit-report-'));
    await mkdir(join(dir, 'docs', 'benchmarks'), { recursive: true });
    await writeFile(join(dir, 'docs', 'benchmarks', 'topic-gone-rows.svg'), '<svg/>');
    await writeFile(join(dir, 'docs', 'benchmarks', 'hand-made.svg'), '<svg/>');
    expect((await writeReport(results, dir)).readme).toBeNull();
    expect(await readdir(join(dir, 'docs', 'benchmarks'))).toContain('hand-made.svg');
    expect(await readdir(join(dir, 'docs', 'benchmarks'))).not.toContain('topic-gone-rows.svg');
    await writeFile(join(dir, 'README.md'), `x\n${README_START}\n${README_END}\n`);
    const written = await writeReport(results, dir);
    expect(written.readme).toBe('README.md');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toContain('| all | 2k |');
    expect((await readdir(join(dir, 'docs', 'benchmarks'))).sort()).toEqual(['hand-made.svg', ...written.charts.map((c) => c.slice('docs/benchmarks/'.length))].sort());
    expect(await readFile(join(dir, 'docs', 'benchmarks.md'), 'utf8')).toBe(benchmarksPage(results).markdown);
  });
});
