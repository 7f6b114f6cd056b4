/**
 * Graph analysis benchmark: `analyzeSpan` (dependency graph, critical chain, supersession, failures and the
 * continuation view under a 1,400-byte allowance) on linear agent chains of 21 … 50,001 messages.
 * Run: `node --conditions=@ctxgit/source --import tsx bench/src/graph.ts [--quick]`
 */
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Node } from '@ctxgit/dag';
import { analyzeSpan, itemFromNode, RulesCache, type ContextItem } from '@ctxgit/rules';
import type { Tokenizer } from '@ctxgit/tokenize';
import { median, p95 } from './stats.js';

/** One chain size. */
export interface GraphChainFigures {
  /** Messages in the chain: one user turn, then (messages - 1) / 2 rounds of assistant step + tool result. */
  readonly messages: number;
  /** Median wall time of one full analysis, ms. */
  readonly medianMs: number;
  /** 95th percentile of the runs, ms. */
  readonly p95Ms: number;
  /** Median CPU time (user + system) of one analysis, ms: less sensitive to a loaded machine than wall time. */
  readonly cpuMedianMs: number;
  /** Median CPU time per message, microseconds. */
  readonly usPerMessage: number;
  /** (CPU median / previous) / (messages / previous messages): 1 is linear; quadratic grows with the size ratio. */
  readonly growthVsPrevious: number | null;
  /** The published Zig implementation's time for this size, ms (quadratic), when published. */
  readonly zigMs: number | null;
  readonly runs: number;
  /** Analyses per timed sample (small chains are batched). */
  readonly batch: number;
  /** Nodes on the critical chain, and bytes of the continuation brief (checks the analysis did its work). */
  readonly chainNodes: number;
  readonly briefBytes: number;
  readonly edges: number;
}

/** Result of {@link runGraphBench}: JSON-able. */
export interface GraphBenchResult {
  /** No tokenizer is involved in the analysis. */
  readonly encoding: 'none';
  readonly briefAllowanceBytes: number;
  readonly chains: readonly GraphChainFigures[];
  readonly growth: {
    /** CPU median at the largest chain (50,001 messages; 5,001 in a quick run) / CPU median at 501 messages. */
    readonly ratioLargestTo501: number;
    /** Largest chain size / 501. */
    readonly sizeRatio: number;
    /** Time ratio / size ratio; near 1 is linear (the Zig reference would be about the size ratio). */
    readonly normalized: number;
    /** True when the normalized growth stays under 2 (well below quadratic). */
    readonly linear: boolean;
  };
}

const SIZES = [21, 101, 201, 501, 5001, 50_001];
// A full collection before each sample, so that garbage of the input copies is not charged to the analysis.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const ZIG: Record<number, number> = { 21: 0.018, 101: 0.11, 201: 0.26, 501: 1.1 };
const ALLOWANCE = 1400;
const flatTokenizer: Tokenizer = { encoding: 'none', estimated: true, count: (t) => t.length >> 2 };

const MODULES = ['config_loader', 'request_router', 'schema_validator', 'cache_backend', 'token_bucket', 'session_store'];

/** A realistic linear agent chain: reads, greps, edits and test runs whose outputs the next step reuses. */
export function syntheticChain(messages: number): readonly ContextItem[] {
  const nodes: Node[] = [];
  let seq = 0;
  const push = (n: Omit<Node, 'session' | 'seq' | 'createdAt'>): Node => {
    const node = { ...n, session: 'bench', seq: seq++, createdAt: seq * 1000 } as Node;
    nodes.push(node);
    return node;
  };
  let prev = push({ id: 'u0', role: 'user', output: 'The request router drops the session header on retries; find the cause and fix it, with a test.' });
  const rounds = (messages - 1) / 2;
  let lastIdent = 'request_router';
  for (let r = 0; r < rounds; r++) {
    const mod = MODULES[r % MODULES.length] as string;
    const file = `src/app/${mod}_${r % 97}.py`;
    const ident = `${mod}_handler_${r}`;
    const kind = r % 7;
    const say = kind === 3 ? `Edit ${file}: ${lastIdent} must keep the header.` : kind === 5 ? `Run the tests for ${lastIdent}.` : `Look at ${file} around ${lastIdent}.`;
    const a = push({ id: `a${r}`, role: 'assistant', output: say, predecessor: prev.id });
    prev = a;
    const body = Array.from({ length: 24 }, (_, l) => `${l + 1}: def ${ident}_${l}(session, headers):  # keeps ${lastIdent} and retry_count_${r}`).join('\n');
    const [name, input, output] =
      kind === 3
        ? ['edit', { path: file, old: `${lastIdent}(`, new: `${lastIdent}(session, ` }, `[File: /repo/${file} (240 lines total)]\n${body}\nFile updated. ${ident} now passes headers.`]
        : kind === 5
          ? ['bash', { command: `python -m pytest tests/test_${mod}.py -q` }, r % 2 === 0 ? `Traceback (most recent call last):\n  File "tests/test_${mod}.py", line 12\nAssertionError: ${ident} lost header` : `12 passed in 0.4s; ${ident} ok`]
          : kind === 1
            ? ['grep', { pattern: lastIdent }, `${file}:12: ${ident}(session)\nsrc/app/other_${r}.py:40: ${ident}_caller()`]
            : ['open', { path: file }, `[File: /repo/${file} (240 lines total)]\n${body}`];
    push({ id: `t${r}`, role: 'tool', name, input, output, caller: a.id, metadata: { callId: `call_${r}` } });
    lastIdent = `${ident}_${(r * 5) % 24}`;
  }
  return nodes.map((n) => itemFromNode(n, flatTokenizer));
}


/** The largest chain a quick run times. */
export const QUICK_MAX_MESSAGES = 5_001;

/**
 * Times the graph analysis on each chain size. Every run gets fresh input copies (each run tokenizes every
 * text again, as a first analysis would), and a full garbage collection runs before each sample.
 *
 * @param opts - `quick` uses fewer runs and chains of at most {@link QUICK_MAX_MESSAGES} messages.
 * @returns Medians, p95, growth ratios and the Zig reference figures.
 */
export async function runGraphBench(opts: { quick: boolean }): Promise<GraphBenchResult> {
  const chains: GraphChainFigures[] = [];
  for (const messages of opts.quick ? SIZES.filter((n) => n <= QUICK_MAX_MESSAGES) : SIZES) {
    const base = syntheticChain(messages);
    // Small chains are timed in batches so that one sample lasts about a millisecond or more.
    const batch = Math.max(1, Math.ceil(2000 / messages));
    const runs = messages >= 50_001 ? (opts.quick ? 3 : 5) : messages >= 5001 ? (opts.quick ? 5 : 11) : opts.quick ? 15 : 31;
    const warmup = Math.max(2, Math.floor(runs / 5));
    const times: number[] = [];
    const cpu: number[] = [];
    // One cache for the chain's runs, as a session keeps one (the per-content memos module-level maps used to hold).
    const cache = new RulesCache();
    let last = analyzeSpan(base, { briefBytes: ALLOWANCE, cache });
    for (let k = 0; k < warmup + runs; k++) {
      const copies = Array.from({ length: batch }, () => base.map((it) => ({ ...it, blocks: [...it.blocks] })));
      collect();
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (const items of copies) last = analyzeSpan(items, { briefBytes: ALLOWANCE, cache });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6 / batch;
      const c = process.cpuUsage(c0);
      if (k >= warmup) {
        times.push(ms);
        cpu.push((c.user + c.system) / 1000 / batch);
      }
    }
    const med = median(times);
    const cpuMed = median(cpu);
    const prevRow = chains.at(-1);
    chains.push({
      messages,
      medianMs: med,
      p95Ms: p95(times),
      cpuMedianMs: cpuMed,
      usPerMessage: (cpuMed * 1000) / messages,
      growthVsPrevious: prevRow === undefined ? null : cpuMed / prevRow.cpuMedianMs / (messages / prevRow.messages),
      zigMs: ZIG[messages] ?? null,
      runs,
      batch,
      chainNodes: last.criticalChain.length,
      briefBytes: new TextEncoder().encode(last.continuation.text).length,
      edges: last.edges.length,
    });
    await new Promise((r) => setImmediate(r));
  }
  const at501 = chains.find((c) => c.messages === 501) as GraphChainFigures;
  const largest = chains.at(-1) as GraphChainFigures;
  const ratio = largest.cpuMedianMs / at501.cpuMedianMs;
  const sizeRatio = largest.messages / at501.messages;
  return {
    encoding: 'none',
    briefAllowanceBytes: ALLOWANCE,
    chains,
    growth: { ratioLargestTo501: ratio, sizeRatio, normalized: ratio / sizeRatio, linear: ratio / sizeRatio < 2 },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await runGraphBench({ quick: process.argv.includes('--quick') });
  const f = (x: number | null, d = 3): string => (x === null ? '—' : x.toFixed(d));
  const lines = [
    `graph analysis (critical chain + continuation view, ${r.briefAllowanceBytes}-byte brief)`,
    'messages   median ms    p95 ms   cpu ms   µs/msg  growth/size   zig ms   chain  brief B   edges',
    ...r.chains.map((c) =>
      [String(c.messages).padStart(8), f(c.medianMs).padStart(11), f(c.p95Ms).padStart(9), f(c.cpuMedianMs).padStart(8), f(c.usPerMessage, 2).padStart(8), f(c.growthVsPrevious, 2).padStart(12), f(c.zigMs).padStart(8), String(c.chainNodes).padStart(7), String(c.briefBytes).padStart(8), String(c.edges).padStart(7)].join(' '),
    ),
    `growth ${r.chains.at(-1)?.messages} vs 501: CPU time ×${r.growth.ratioLargestTo501.toFixed(1)} for size ×${r.growth.sizeRatio.toFixed(1)} (normalized ${r.growth.normalized.toFixed(2)}, linear: ${r.growth.linear})`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
