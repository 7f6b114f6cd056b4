/**
 * DAG benchmark: the cost of one append and of one branch view on MemoryNodeStore sessions of 100, 1,000 and
 * 10,000 nodes (medians and p95 after warmup), plus per-depth normalised branch-view cost and growth ratios.
 * An append must not grow with the number of earlier nodes; a branch view must grow at most with depth.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/dag.ts [--quick]`
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { MemoryNodeStore, appendNode, branchView, checkout, createSession, type DagOptions, type Node } from '@ctxgit/dag';
import { median, p95 } from './stats.js';

/** Figures at one session size. */
export interface DagBenchRow {
  /** Nodes in the session before the measured operations. */
  readonly nodes: number;
  /** Length of HEAD's predecessor chain (conversation nodes; the rest are tool nodes hung under assistants). */
  readonly depth: number;
  /** Timed appends (each at the same depth: HEAD is checked back out, untimed, after each). */
  readonly appendRuns: number;
  readonly appendMedianUs: number;
  readonly appendP95Us: number;
  /** Fastest timed append: robust to other load on the machine. */
  readonly appendMinUs: number;
  /** Timed branch views of HEAD. */
  readonly viewRuns: number;
  readonly viewMedianMs: number;
  readonly viewP95Ms: number;
  /** Fastest timed branch view. */
  readonly viewMinMs: number;
  /** Nodes in the branch view (chain plus tool nodes). */
  readonly viewNodes: number;
  /** Median branch-view time divided by the number of nodes it returns, in nanoseconds. */
  readonly viewPerNodeNs: number;
  /** Median branch-view time divided by `depth`, in nanoseconds. */
  readonly viewPerDepthNs: number;
  /** Fastest branch-view time divided by `depth`, in nanoseconds. */
  readonly viewPerDepthMinNs: number;
}

/** Result of {@link runDagBench}: one row per size and growth ratios between the largest and smallest sizes. */
export interface DagBenchResult {
  readonly sizes: readonly number[];
  readonly rows: readonly DagBenchRow[];
  /** Append median at 10,000 nodes over that at 100 (≈1 means O(1) in the number of earlier nodes). */
  readonly append10kOver100: number;
  /** Per-depth branch-view cost at 10,000 nodes over that at 100 (≈1 means O(depth)). */
  readonly viewPerDepth10kOver100: number;
  /** Per-depth branch-view cost at 10,000 nodes over that at 1,000. */
  readonly viewPerDepth10kOver1k: number;
  /** The same two ratios on the fastest runs (less sensitive to other load on the machine). */
  readonly appendMin10kOver100: number;
  readonly viewPerDepthMin10kOver100: number;
}

const SIZES = [100, 1_000, 10_000] as const;


/** Builds a session of `n` nodes: user, assistant, then a tool call under the assistant, repeated. */
async function build(n: number, opts: DagOptions): Promise<{ store: MemoryNodeStore; head: Node }> {
  const store = new MemoryNodeStore();
  await createSession(store, 'bench');
  let head: Node | undefined;
  let assistant: Node | undefined;
  for (let i = 0; i < n; i += 1) {
    const k = i % 3;
    if (k === 0) head = await appendNode(store, 'bench', { role: 'user', output: `question ${i}` }, opts);
    else if (k === 1) head = assistant = await appendNode(store, 'bench', { role: 'assistant', output: `answer ${i}` }, opts);
    else await appendNode(store, 'bench', { role: 'tool', name: 'bash', input: { cmd: `cat f${i}` }, output: `output ${i}`, caller: assistant?.id ?? '' }, opts);
  }
  if (head === undefined) throw new Error('empty bench session');
  return { store, head };
}

async function measure(n: number, appendRuns: number, viewRuns: number): Promise<DagBenchRow> {
  let t = 0;
  const opts: DagOptions = { clock: () => t++ };
  const { store, head } = await build(n, opts);
  const appendTimes: number[] = [];
  for (let r = 0; r < appendRuns + 5; r += 1) {
    const start = performance.now();
    await appendNode(store, 'bench', { role: 'user', output: `probe ${r}` }, opts);
    const took = performance.now() - start;
    if (r >= 5) appendTimes.push(took * 1000);
    await checkout(store, 'bench', head.id);
  }
  const viewTimes: number[] = [];
  let viewNodes = 0;
  let depth = 0;
  for (let r = 0; r < viewRuns + 3; r += 1) {
    const start = performance.now();
    const view = await branchView(store, head.id);
    const took = performance.now() - start;
    viewNodes = view.length;
    depth = view.filter((v) => v.role !== 'tool').length;
    if (r >= 3) viewTimes.push(took);
  }
  const viewMedianMs = median(viewTimes);
  return {
    nodes: n,
    depth,
    appendRuns,
    appendMedianUs: median(appendTimes),
    appendP95Us: p95(appendTimes),
    appendMinUs: appendTimes[0] ?? 0,
    viewRuns,
    viewMedianMs,
    viewP95Ms: p95(viewTimes),
    viewMinMs: viewTimes[0] ?? 0,
    viewNodes,
    viewPerNodeNs: (viewMedianMs * 1e6) / viewNodes,
    viewPerDepthNs: (viewMedianMs * 1e6) / depth,
    viewPerDepthMinNs: ((viewTimes[0] ?? 0) * 1e6) / depth,
  };
}

/**
 * Measures append and branch-view cost at 100, 1,000 and 10,000 nodes.
 *
 * @param opts - `quick`: fewer runs per size (for CI).
 * @returns One row per size and the growth ratios.
 * @example
 * ```ts
 * const { append10kOver100 } = await runDagBench({ quick: true });
 * ```
 */
export async function runDagBench(opts: { quick: boolean }): Promise<DagBenchResult> {
  const appendRuns = opts.quick ? 100 : 1_000;
  const viewRuns = (n: number): number => (opts.quick ? { 100: 100, 1000: 30, 10000: 8 } : { 100: 1_000, 1000: 200, 10000: 40 })[n] ?? 5;
  await measure(1_000, 500, 30); // warmup of the JIT
  const rows: DagBenchRow[] = [];
  for (const n of SIZES) rows.push(await measure(n, appendRuns, viewRuns(n)));
  const at = (n: number): DagBenchRow | undefined => rows.find((r) => r.nodes === n);
  const ratio = (a: number | undefined, b: number | undefined): number => (a === undefined || b === undefined ? Number.NaN : a / b);
  return {
    sizes: SIZES,
    rows,
    append10kOver100: ratio(at(10_000)?.appendMedianUs, at(100)?.appendMedianUs),
    viewPerDepth10kOver100: ratio(at(10_000)?.viewPerDepthNs, at(100)?.viewPerDepthNs),
    viewPerDepth10kOver1k: ratio(at(10_000)?.viewPerDepthNs, at(1_000)?.viewPerDepthNs),
    appendMin10kOver100: ratio(at(10_000)?.appendMinUs, at(100)?.appendMinUs),
    viewPerDepthMin10kOver100: ratio(at(10_000)?.viewPerDepthMinNs, at(100)?.viewPerDepthMinNs),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runDagBench({ quick: process.argv.includes('--quick') });
  const pad = (value: string, width: number): string => value.padStart(width);
  process.stdout.write(
    `${pad('nodes', 7)}${pad('depth', 7)}${pad('append µs', 11)}${pad('p95 µs', 9)}${pad('min µs', 9)}${pad('view ms', 10)}${pad('p95 ms', 9)}${pad('min ms', 9)}${pad('view nodes', 12)}${pad('ns/node', 9)}${pad('ns/depth', 10)}${pad('min ns/depth', 14)}\n`,
  );
  for (const r of result.rows) {
    process.stdout.write(
      `${pad(String(r.nodes), 7)}${pad(String(r.depth), 7)}${pad(r.appendMedianUs.toFixed(1), 11)}${pad(r.appendP95Us.toFixed(1), 9)}${pad(r.appendMinUs.toFixed(1), 9)}${pad(r.viewMedianMs.toFixed(3), 10)}${pad(r.viewP95Ms.toFixed(3), 9)}${pad(r.viewMinMs.toFixed(3), 9)}${pad(String(r.viewNodes), 12)}${pad(r.viewPerNodeNs.toFixed(0), 9)}${pad(r.viewPerDepthNs.toFixed(0), 10)}${pad(r.viewPerDepthMinNs.toFixed(0), 14)}\n`,
    );
  }
  process.stdout.write(
    `append 10k/100 = ${result.append10kOver100.toFixed(2)}; branch view per depth 10k/100 = ${result.viewPerDepth10kOver100.toFixed(2)}, 10k/1k = ${result.viewPerDepth10kOver1k.toFixed(2)}; fastest runs: append 10k/100 = ${result.appendMin10kOver100.toFixed(2)}, view per depth 10k/100 = ${result.viewPerDepthMin10kOver100.toFixed(2)}\n`,
  );
}
