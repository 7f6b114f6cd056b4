/**
 * Rule pipeline benchmark: one `runPipeline` call (the three nodes of one agent turn: user, assistant, tool call
 * with a realistic output) on top of a session of 100, 1,000 and 10,000 turns, in two scenarios:
 * - `steady`: a history budget far above the session (no folding pressure), epochs off so aging and idle
 *   clearing run on every call;
 * - `folding`: a 32,000-token history budget with the default band, so epochs open and folds happen every few
 *   turns (100 and 1,000 turns only: a fold's brief reads every original behind the summary it nests, so building a
 *   10,000-turn prefix takes about 100 s).
 * The session prefix is built by running the pipeline over chunks of turns (not timed; a chunk that cannot be
 * folded under the emergency mark in one call is split); then `measured` calls
 * are timed one by one, each on the previous call's items. Reported: median and p95 per call, and the ratio of
 * the median at 10,000 turns to the median at 100 turns (≈1: a call does not grow with the session).
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/pipeline.ts [--quick]`
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Node } from '@ctxgit/dag';
import { runPipeline, RulesCache, RulesOverBudgetError, type BandOptions, type ContextItem } from '@ctxgit/rules';
import { loadTokenizer, type Tokenizer } from '@ctxgit/tokenize';
import { median, p95 } from './stats.js';

/** The two pressure scenarios. */
export type PipelineBenchScenario = 'steady' | 'folding';

/** Figures for one session length and scenario. Times in milliseconds. */
export interface PipelineBenchRow {
  readonly scenario: PipelineBenchScenario;
  readonly turns: number;
  /** Items in the list passed to the last timed call. */
  readonly items: number;
  readonly measured: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  /** Summaries created during the timed calls (shows the folding pressure). */
  readonly summaries: number;
  /** Items aged during the timed calls. */
  readonly aged: number;
  /** Building the prefix (not part of the figures). */
  readonly setupMs: number;
}

/** Result of {@link runPipelineBench}: JSON-able. */
export interface PipelineBenchResult {
  readonly quick: boolean;
  readonly encoding: string;
  readonly rows: readonly PipelineBenchRow[];
  /** Median at the largest size over the median at 100 turns, per scenario (steady: 10,000 turns, 1,000 in a quick run; folding: 1,000). */
  readonly ratioLargestOver100: { readonly [scenario: string]: number };
}

const SIZES = [100, 1000, 10_000];
const TURN_MS = 20_000;
const WORDS = ['parse', 'config', 'loader', 'schema', 'field', 'nested', 'value', 'marshal', 'decode', 'token', 'buffer', 'stream'];
const word = (i: number): string => WORDS[i % WORDS.length] as string;

/** A realistic tool call for turn `i`: file views, greps, edits (supersession), test runs (some failing), long logs (cap). */
function toolOf(i: number): { name: string; input: Record<string, string>; output: string } {
  const file = `src/pkg${i % 17}/${word(i)}_${word(i + 3)}.py`;
  switch (i % 5) {
    case 0: {
      const lines = Array.from({ length: 30 }, (_, k) => `${k + 1}: def ${word(i + k)}_${k}(self, ${word(k)}): return self._${word(i * k)}`);
      return { name: 'str_replace_editor', input: { command: 'view', path: file }, output: `[File: ${file} (${30 + i % 40} lines total)]\n${lines.join('\n')}` };
    }
    case 1:
      return {
        name: 'bash',
        input: { command: `grep -rn ${word(i)}_${i % 9} src/` },
        output: Array.from({ length: 12 }, (_, k) => `src/pkg${(i + k) % 17}/${word(k)}.py:${10 + k}:    ${word(i)}_${i % 9} = ${word(k)}(${k})`).join('\n'),
      };
    case 2:
      return {
        name: 'str_replace_editor',
        input: { command: 'str_replace', path: file, old_str: `return self._${word(i)}`, new_str: `return self._${word(i + 1)} or None` },
        output: `The file ${file} has been edited. Here's the result of running \`cat -n\` on a snippet:\n    12\t    return self._${word(i + 1)} or None`,
      };
    case 3:
      return i % 15 === 3
        ? { name: 'bash', input: { command: 'python -m pytest tests -x -q' }, output: `Traceback (most recent call last):\n  File "${file}", line 41, in ${word(i)}\n    raise ValueError("${word(i + 2)}")\nValueError: ${word(i + 2)} is not valid\n` }
        : { name: 'bash', input: { command: 'python -m pytest tests -x -q' }, output: `${'.'.repeat(40)}\n${40 + (i % 7)} passed in 1.${i % 10}s` };
    default:
      return {
        name: 'bash',
        input: { command: `python scripts/run_${word(i)}.py --verbose` },
        output: Array.from({ length: 90 }, (_, k) => `[${k}] ${word(i + k)} ${word(k)} step=${k} loss=${(1 / (k + 1)).toFixed(5)} path=src/pkg${k % 17}`).join('\n'),
      };
  }
}

function turnNodes(i: number): Node[] {
  const at = i * TURN_MS;
  const u = `u${i}`;
  const a = `a${i}`;
  const tool = toolOf(i);
  return [
    { id: u, session: 'b', seq: 3 * i, createdAt: at, role: 'user', output: `Step ${i}: please look at ${word(i)}_${word(i + 3)} and fix the ${word(i + 5)} handling.`, ...(i > 0 ? { predecessor: `a${i - 1}` } : {}) },
    { id: a, session: 'b', seq: 3 * i + 1, createdAt: at + 1000, role: 'assistant', output: `I will check ${word(i)}_${word(i + 3)} in src/pkg${i % 17} and the ${word(i - 1)}_${(i - 1) % 9} results.`, predecessor: u },
    { id: `t${i}`, session: 'b', seq: 3 * i + 2, createdAt: at + 2000, role: 'tool', name: tool.name, input: tool.input, output: tool.output, caller: a },
  ];
}

interface Setup {
  readonly historyBudget: number;
  readonly band: BandOptions;
  /** Turns per pipeline call while building the prefix. */
  readonly chunk: number;
}

const SETUPS: Record<PipelineBenchScenario, Setup> = {
  steady: { historyBudget: 1e12, band: { epochs: false }, chunk: 500 },
  folding: { historyBudget: 32_000, band: {}, chunk: 60 },
};

function measure(scenario: PipelineBenchScenario, turns: number, measured: number, tokenizer: Tokenizer): PipelineBenchRow {
  const { historyBudget, band, chunk } = SETUPS[scenario];
  // One cache per session, as a Session keeps one: each call costs what changed since the previous one.
  const cache = new RulesCache();
  const folds = new Map<string, readonly ContextItem[]>();
  const run = (items: readonly ContextItem[], nodes: readonly Node[]): ReturnType<typeof runPipeline> => {
    const r = runPipeline(items, nodes, { now: (nodes.at(-1) as Node).createdAt, tokenizer, historyBudget, band, cache, foldedOf: (key) => folds.get(key) });
    for (const [key, list] of r.folds) folds.set(key, list);
    return r;
  };
  const t0 = performance.now();
  // Turns [from, to) in one call; a chunk too large to fold under the emergency mark is split in halves.
  const extend = (items: readonly ContextItem[], from: number, to: number): readonly ContextItem[] => {
    const nodes: Node[] = [];
    for (let k = from; k < to; k++) nodes.push(...turnNodes(k));
    try {
      return run(items, nodes).items;
    } catch (e) {
      if (!(e instanceof RulesOverBudgetError) || to - from === 1) throw e;
      const mid = from + Math.floor((to - from) / 2);
      return extend(extend(items, from, mid), mid, to);
    }
  };
  let items: readonly ContextItem[] = [];
  for (let i = 0; i < turns; i += chunk) items = extend(items, i, Math.min(turns, i + chunk));
  const setupMs = performance.now() - t0;
  // Warm up on copies of the next turns, then time fresh turns.
  for (let w = 0; w < 3; w++) run(items, turnNodes(turns + w));
  const times: number[] = [];
  let summaries = 0;
  let aged = 0;
  let last = items.length;
  for (let k = 0; k < measured; k++) {
    const nodes = turnNodes(turns + k);
    last = items.length;
    const s = performance.now();
    const r = run(items, nodes);
    times.push(performance.now() - s);
    items = r.items;
    summaries += r.report.summaries;
    aged += r.report.aged;
  }
  return { scenario, turns, items: last, measured, medianMs: median(times), p95Ms: p95(times), summaries, aged, setupMs };
}

/**
 * Measures `runPipeline` per call at sessions of 100, 1,000 and 10,000 turns, with and without folding pressure.
 *
 * @param opts - `quick`: 100 and 1,000 turns only, fewer timed calls per size (for CI smoke runs).
 * @returns Rows per scenario and size, and the 10,000 / 100 ratio of the medians.
 * @example
 * ```ts
 * const r = await runPipelineBench({ quick: true });
 * r.ratioLargestOver100.folding; // ≈ 1 when a call does not grow with the session
 * ```
 */
export async function runPipelineBench(opts: { quick: boolean }): Promise<PipelineBenchResult> {
  const tokenizer = await loadTokenizer('o200k_base');
  const measured = opts.quick ? 15 : 60;
  const rows: PipelineBenchRow[] = [];
  // A fold's brief is written from every original behind the summary it nests, so building a 10,000-turn folded
  // prefix takes about 100 s on 2 cores (a fold costs the session there): the folding scenario stops at 1,000 turns.
  const sizesOf = (scenario: PipelineBenchScenario): number[] => SIZES.filter((n) => n <= (opts.quick || scenario === 'folding' ? 1_000 : Infinity));
  for (const scenario of ['steady', 'folding'] as const) for (const turns of sizesOf(scenario)) rows.push(measure(scenario, turns, measured, tokenizer));
  const ratio: Record<string, number> = {};
  for (const scenario of ['steady', 'folding'] as const) {
    const at = (n: number): number => rows.find((r) => r.scenario === scenario && r.turns === n)?.medianMs ?? NaN;
    ratio[scenario] = at(sizesOf(scenario).at(-1) as number) / at(100);
  }
  return { quick: opts.quick, encoding: tokenizer.encoding, rows, ratioLargestOver100: ratio };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await runPipelineBench({ quick: process.argv.includes('--quick') });
  const pad = (s: string | number, n: number): string => String(s).padStart(n);
  console.log(`runPipeline per call (${r.encoding}${r.quick ? ', quick' : ''})`);
  console.log(`${'scenario'.padEnd(9)}${pad('turns', 7)}${pad('items', 7)}${pad('median ms', 11)}${pad('p95 ms', 9)}${pad('folds', 7)}${pad('aged', 6)}${pad('setup s', 9)}`);
  for (const x of r.rows) {
    console.log(`${x.scenario.padEnd(9)}${pad(x.turns, 7)}${pad(x.items, 7)}${pad(x.medianMs.toFixed(3), 11)}${pad(x.p95Ms.toFixed(3), 9)}${pad(x.summaries, 7)}${pad(x.aged, 6)}${pad((x.setupMs / 1000).toFixed(1), 9)}`);
  }
  for (const [s, v] of Object.entries(r.ratioLargestOver100)) console.log(`ratio largest/100 ${s}: ${v.toFixed(2)}`);
}
