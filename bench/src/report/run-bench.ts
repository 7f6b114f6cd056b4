import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { EvalOptions } from '../eval/eval-options.js';
import type { EvalResult } from '../eval/eval-result.js';
import type { BenchResults, TopicOutcome } from './bench-results.js';
import { corpusDigest } from './corpus-digest.js';
import { gitState } from './git-state.js';
import { writeReport } from './write-report.js';
import type { ReportFiles } from './write-report.js';

/** The per-topic benchmark modules, in run order: `bench/src/<topic>.ts` exporting `run<Topic>Bench`. */
export const TOPICS: readonly string[] = ['dag', 'tokenize', 'graph', 'pipeline', 'render', 'git', 'commit', 'tools', 'viewer', 'remote', 'storage', 'checkpointers', 'cold-start', 'import'];

/** Options of {@link runBench}. */
export interface RunBenchOptions {
  /** Reduced sizes and a corpus sample (under a minute). @defaultValue false */
  readonly quick?: boolean;
  /** Topics to run. @defaultValue {@link TOPICS} */
  readonly topics?: readonly string[];
  /** Run the policy evaluation. @defaultValue true */
  readonly evaluation?: boolean;
  /** Options passed to the evaluation (the sample size); `quick` is filled in. */
  readonly evalOptions?: Pick<EvalOptions, 'sample' | 'budgets'>;
  /** The repository root (git state, README). */
  readonly root: string;
  /** The corpus folder. */
  readonly corpusDir: string;
  /** Where `bench/results/latest.json` and `docs/` are written. @defaultValue `root` */
  readonly outDir?: string;
  /** Progress lines (to stderr in the CLI). @defaultValue none */
  readonly log?: (line: string) => void;
  /** Loads a topic module; injectable for tests. @defaultValue a dynamic import of `bench/src/<topic>.ts` */
  readonly importTopic?: (topic: string) => Promise<Record<string, unknown>>;
  /** The evaluation; injectable for tests. @defaultValue `runPolicyEval` of `bench/src/eval` */
  readonly runEval?: (options: EvalOptions) => Promise<EvalResult>;
}

/** What {@link runBench} produced. */
export interface RunBenchOutcome {
  readonly results: BenchResults;
  /** Path of the results JSON. */
  readonly json: string;
  readonly report: ReportFiles;
  /** Topics (and `evaluation`) that failed or are missing; the CLI exits non-zero when not empty. */
  readonly failures: readonly string[];
}

async function importTopicModule(topic: string): Promise<Record<string, unknown>> {
  if (!existsSync(fileURLToPath(new URL(`../${topic}.ts`, import.meta.url)))) throw new Error(`missing module: bench/src/${topic}.ts does not exist`);
  return (await import(`../${topic}.js`)) as Record<string, unknown>;
}

const benchName = (topic: string): string => `run${topic.charAt(0).toUpperCase()}${topic.slice(1).replace(/-(\w)/gu, (_, c: string) => c.toUpperCase())}Bench`;
const message = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/**
 * Runs every per-topic benchmark that is asked for, then the policy evaluation, and writes the stamped results
 * JSON, the docs page with its charts and the README table. A missing or failing topic is recorded as a
 * failure (never skipped silently) and the rest still runs.
 * @example
 * ```ts
 * const { failures } = await runBench({ quick: true, root, corpusDir });
 * ```
 */
export async function runBench(options: RunBenchOptions): Promise<RunBenchOutcome> {
  const quick = options.quick ?? false;
  const log = options.log ?? (() => undefined);
  const outDir = options.outDir ?? options.root;
  const importTopic = options.importTopic ?? importTopicModule;
  const started = new Date();
  const gitAtStart = gitState(options.root); // topic modules load lazily: the tree must not change until the end
  const load = loadavg().map((l) => Math.round(l * 100) / 100);
  const t0 = performance.now();
  const topics: Record<string, TopicOutcome> = {};
  const failures: string[] = [];
  for (const topic of options.topics ?? TOPICS) {
    const start = performance.now();
    log(`bench ${topic}${quick ? ' (quick)' : ''} ...`);
    try {
      const mod = await importTopic(topic);
      const run = mod[benchName(topic)];
      if (typeof run !== 'function') throw new Error(`bench/src/${topic}.ts does not export ${benchName(topic)}`);
      const result: unknown = await (run as (o: { quick: boolean; log: (line: string) => void }) => Promise<unknown>)({ quick, log });
      topics[topic] = { ok: true, durationMs: performance.now() - start, result: JSON.parse(JSON.stringify(result)) };
    } catch (e) {
      topics[topic] = { ok: false, durationMs: performance.now() - start, error: message(e) };
      failures.push(topic);
    }
    log(`bench ${topic}: ${topics[topic]?.ok === true ? 'ok' : `FAILED (${(topics[topic] as { error: string }).error})`}`);
  }
  let evaluation: BenchResults['evaluation'] = { ok: false, durationMs: 0, error: 'not run (--no-eval)' };
  if (options.evaluation ?? true) {
    const start = performance.now();
    log(`evaluation${quick ? ' (quick)' : ''} ...`);
    try {
      const runEval = options.runEval ?? (await import('../eval/run-policy-eval.js')).runPolicyEval;
      const result = await runEval({ ...options.evalOptions, quick, corpusDir: options.corpusDir, log });
      evaluation = { ok: true, durationMs: performance.now() - start, result };
    } catch (e) {
      evaluation = { ok: false, durationMs: performance.now() - start, error: message(e) };
      failures.push('evaluation');
    }
    log(`evaluation: ${evaluation.ok ? 'ok' : `FAILED (${evaluation.error})`}`);
  }
  const gitAtEnd = gitState(options.root);
  const git = { commit: gitAtStart.commit, dirty: gitAtStart.dirty || gitAtEnd.dirty || gitAtEnd.commit !== gitAtStart.commit };
  const corpus = await corpusDigest(options.corpusDir);
  const cpu = cpus();
  const results: BenchResults = {
    schema: 1,
    stamp: {
      commit: git.commit,
      dirty: git.dirty,
      corpusDigest: corpus.digest,
      corpusFiles: corpus.files,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpu: cpu[0]?.model.trim() ?? 'unknown',
      cores: cpu.length,
      loadAverage: load,
      date: started.toISOString(),
      quick,
      durationMs: performance.now() - t0,
    },
    topics,
    evaluation,
  };
  const json = join(outDir, 'bench', 'results', 'latest.json');
  await mkdir(join(outDir, 'bench', 'results'), { recursive: true });
  await writeFile(json, `${JSON.stringify(results, null, 2)}\n`);
  const report = await writeReport(results, outDir);
  return { results, json, report, failures };
}
