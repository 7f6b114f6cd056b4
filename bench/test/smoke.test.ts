import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BenchResults } from '../src/report/bench-results.js';
import { parseBenchArgs } from '../src/report/parse-bench-args.js';
import { runBench } from '../src/report/run-bench.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const corpusDir = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));

describe('pnpm bench --quick (smoke run on a reduced subset; no timing assertions)', () => {
  it('writes a stamped results JSON with the evaluation and the docs page', async () => {
    const out = await mkdtemp(join(tmpdir(), 'ctxgit-bench-'));
    const run = spawnSync(
      process.execPath,
      ['--conditions=@ctxgit/source', '--import', 'tsx', 'bench/src/main.ts', '--quick', '--topics', 'none', '--sample', '1', '--out-dir', out],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.stderr).toContain('evaluation: ok');
    expect(run.status).toBe(0);
    const results = JSON.parse(await readFile(join(out, 'bench', 'results', 'latest.json'), 'utf8')) as BenchResults;
    expect(results.schema).toBe(1);
    expect(results.stamp).toMatchObject({ quick: true, corpusFiles: 27, node: process.version });
    expect(results.stamp.commit).toMatch(/^([0-9a-f]{40}|uncommitted)$/);
    expect(results.stamp.corpusDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof results.stamp.dirty).toBe('boolean');
    expect(results.stamp.cores).toBeGreaterThan(0);
    expect(results.topics).toEqual({});
    expect(results.evaluation.ok).toBe(true);
    if (!results.evaluation.ok) return;
    const ev = results.evaluation.result;
    expect(ev.encoding).toBe('o200k_base');
    expect(ev.corpora.map((c) => [c.name, c.conversations, c.replayed, c.timestamps])).toEqual([
      ['tau-bench-airline', 150, 1, false],
      ['swe-agent', 16, 1, false],
      ['claude-code', 4, 1, true],
      ['long-tau-bench-airline', 1, 1, false],
      ['long-swe-agent', 1, 1, false],
      ['long-claude-code', 1, 1, false],
    ]);
    for (const c of ev.corpora.filter((c) => c.name.startsWith('long-'))) expect(c.calls).toBeGreaterThanOrEqual(60);
    expect(ev.renderFallbacks).toEqual({ count: 0, firstError: null });
    expect(ev.policies.map((p) => p.id)).toEqual([
      'full-history', 'sliding-window', 'tool-clearing', 'tool-clearing-at-least', 'masking-3', 'masking-5', 'masking-10',
      'ctxgit', 'ctxgit-no-graph', 'ctxgit-no-epochs', 'ctxgit-no-paid-folds', 'ctxgit-no-folding',
    ]);
    const long = ev.corpora.filter((c) => c.name.startsWith('long-')).length;
    expect(ev.summaries.length).toBe(ev.policies.length * (ev.budgets.length * (1 + ev.corpora.length - long) + (ev.longBudgets ?? []).length * long));
    for (const s of ev.summaries) {
      expect(Object.keys(s.cost).sort()).toEqual(['anthropic-sonnet-4.5', 'openai-gpt-4.1', 'openai-gpt-4o']);
      expect(s.dependencyRecall.share).toBeGreaterThanOrEqual(0);
      expect(s.dependencyRecall.share).toBeLessThanOrEqual(1);
      expect(s.cachedPrefixShare.tokens).toBeLessThanOrEqual(1);
    }
    const page = await readFile(join(out, 'docs', 'benchmarks.md'), 'utf8');
    expect(page).toContain('### All corpora, budget 4k tokens');
    expect(page).toContain('### ctxgit against the cheapest baseline that stays under budget');
  });
});

describe('runBench', () => {
  it('records a missing module and a failing topic as failures, and keeps the results of the others', async () => {
    const out = await mkdtemp(join(tmpdir(), 'ctxgit-bench-'));
    const outcome = await runBench({
      quick: true,
      topics: ['dag', 'graph', 'render'],
      evaluation: false,
      root,
      corpusDir,
      outDir: out,
      importTopic: async (topic) => {
        if (topic === 'dag') throw new Error(`Cannot find module 'bench/src/dag.ts'`);
        if (topic === 'graph') return { runGraphBench: async () => Promise.reject(new Error('boom')) };
        return { runRenderBench: async ({ quick }: { quick: boolean }) => ({ quick, medianMs: 1.25 }) };
      },
    });
    expect(outcome.failures).toEqual(['dag', 'graph']);
    expect(outcome.results.topics['dag']).toMatchObject({ ok: false, error: "Error: Cannot find module 'bench/src/dag.ts'" });
    expect(outcome.results.topics['graph']).toMatchObject({ ok: false, error: 'Error: boom' });
    expect(outcome.results.topics['render']).toMatchObject({ ok: true, result: { quick: true, medianMs: 1.25 } });
    expect(JSON.parse(await readFile(outcome.json, 'utf8')).topics.render.result).toEqual({ quick: true, medianMs: 1.25 });
  });

  it('reports a topic module that does not exist as missing, by its path', async () => {
    const outcome = await runBench({ topics: ['no-such-topic'], evaluation: false, root, corpusDir, outDir: await mkdtemp(join(tmpdir(), 'ctxgit-bench-')) });
    expect(outcome.failures).toEqual(['no-such-topic']);
    expect(outcome.results.topics['no-such-topic']).toMatchObject({ ok: false, error: 'Error: missing module: bench/src/no-such-topic.ts does not exist' });
  });

  it('names a module that lacks its run function', async () => {
    const outcome = await runBench({ topics: ['git'], evaluation: false, root, corpusDir, outDir: await mkdtemp(join(tmpdir(), 'ctxgit-bench-')), importTopic: async () => ({}) });
    expect(outcome.results.topics['git']).toMatchObject({ ok: false, error: 'Error: bench/src/git.ts does not export runGitBench' });
  });
});

describe('parseBenchArgs', () => {
  it('parses the flags and refuses unknown ones', () => {
    expect(parseBenchArgs(['--quick', '--topics', 'dag,render', '--sample', '3', '--out-dir', '/tmp/x', '--no-eval'])).toEqual({
      quick: true,
      evaluation: false,
      topics: ['dag', 'render'],
      sample: 3,
      outDir: '/tmp/x',
    });
    expect(parseBenchArgs(['--', '--topics', 'none'])).toEqual({ quick: false, evaluation: true, topics: [] });
    expect(() => parseBenchArgs(['--fast'])).toThrow('unknown argument --fast');
    expect(() => parseBenchArgs(['--topics', 'nope'])).toThrow('unknown topic nope');
    expect(() => parseBenchArgs(['--sample', '0'])).toThrow('--sample needs a positive integer');
  });
});
