import { RulesInputError } from './errors.js';
import type { Block, ContextItem } from './item.js';
import { containsToken } from './contains-token.js';
import { headOf } from './head-of.js';
import { MinHeap } from './min-heap.js';
import type { Operation } from './operation-paths.js';
import { RulesCache } from './rules-cache.js';
import { argTokens, resultOp, scanMemos, SpanScan, stepText } from './span-scan.js';
import type { AnalyzeSpanOptions, ContinuationView, SpanAnalysis, SpanEdge, SpanEdgeKind } from './span-analysis.js';

type Call = Extract<Block, { type: 'tool_call' }>;
type Result = Extract<Block, { type: 'tool_result' }>;

interface GNode {
  readonly key: string;
  readonly step: boolean;
  readonly text: string;
  /** A step's blocks (the key of its memoized tokens). */
  readonly blocks?: readonly Block[];
  readonly call?: Call;
  readonly result?: Result;
  /** Graph index of the step that issued a result; -1 when none. */
  round: number;
}

const oneLine = (s: string, max: number): string => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${headOf(line, max - 1)}…` : line;
};
const CALL = 0;
const REUSE = 1;
const ROUND = 2;
const STEP = 3;
const KINDS: readonly SpanEdgeKind[] = ['call', 'reuse', 'round', 'step'];
/** Dijkstra costs by kind: reuse 1, call 2, round 3, step 2. */
const COST: readonly number[] = [2, 1, 3, 2];

/** Edges in compressed rows: node i's dependencies are `to[start[i] .. start[i + 1])`. */
interface Deps {
  readonly start: Int32Array;
  readonly to: number[];
  readonly w: number[];
  readonly kind: number[];
}

/**
 * Builds the dependency graph of a span and derives what a continuation needs.
 *
 * Graph nodes are the visible (not `summarized`, unless `includeSummarized`) `assistant` items (steps) and
 * `tool` items (results).
 * Edges, each from the later node to the earlier: result → the step that issued it (weight 1); step → each
 * result of the previous round, weight 2 when the step reuses one of the result's distinctive tokens
 * ({@link distinctiveTokens}), else 0; step → the previous step (weight 1). The critical chain is the
 * longest weighted path ending at the frontier (the latest step): it passes every step, and between a step and
 * the previous one takes the newest result of the previous round that the step reuses (weight 3), else the step
 * edge (weight 1) — the same chain protection keeps, from the same code, in O(V+E). Later identical calls and later operations on the same file path supersede
 * earlier results; failed results are recognized by {@link isFailedResult}. The continuation view orders
 * nodes by a shortest-path tree from the frontier (Dijkstra, binary heap, O((V+E) log V); edge costs
 * reuse 1, call 2, step 2, round 3) and renders NEXT / ON DISK / RULED OUT / ESTABLISHED under the
 * byte allowance.
 *
 * @param items - The items, in list order (other roles and `summarized` items are skipped).
 * @param options - See {@link AnalyzeSpanOptions}.
 * @returns The analysis.
 * @example
 * ```ts
 * const a = analyzeSpan(items, { briefBytes: 1400 });
 * a.criticalChain; // ['a1', 't1', 'a2', ...]
 * a.continuation.text; // '[ctxgit brief] ...\nNEXT:\n- ...'
 * ```
 */
export function analyzeSpan(items: readonly ContextItem[], options: AnalyzeSpanOptions = {}): SpanAnalysis {
  const allowance = options.briefBytes ?? 1400;
  if (!Number.isInteger(allowance) || allowance < 64) throw new RulesInputError('option briefBytes', 'expected an integer >= 64');
  const a = analyze(items, options.cache ?? new RulesCache(), options.includeSummarized === true);
  let continuation: ContinuationView | undefined;
  return {
    get nodes(): readonly string[] {
      return a.nodes;
    },
    get edges(): readonly SpanEdge[] {
      return a.edges;
    },
    frontier: a.frontier,
    criticalChain: a.criticalChain,
    chainWeight: a.chainWeight,
    superseded: a.superseded,
    failed: a.failed,
    reused: a.reused,
    get continuation(): ContinuationView {
      return (continuation ??= a.views()(allowance));
    },
  };
}

/** The continuation view of a span's visible items, written at any byte allowance (its lines are ordered once). */
export function continuationViews(items: readonly ContextItem[], cache: RulesCache): ViewWriter {
  return analyze(items, cache, false).views();
}

/** Writes a continuation view within `allowance` bytes. */
type ViewWriter = (allowance: number) => ContinuationView;

/** {@link analyzeSpan}'s work: the analysis, and its continuation view's writer built on first use. */
function analyze(items: readonly ContextItem[], cache: RulesCache, withSummarized: boolean): Omit<SpanAnalysis, 'continuation'> & { views: () => ViewWriter } {
  const memos = scanMemos(cache);
  const g: GNode[] = [];
  const indexOf = new Map<string, number>();
  let lastStep = -1;
  for (const it of items) {
    if (it.state === 'summary' || (it.state === 'summarized' && !withSummarized)) continue;
    if (it.role === 'assistant') {
      indexOf.set(it.key, g.length);
      lastStep = g.length;
      g.push({ key: it.key, step: true, text: textOf(it.blocks), blocks: it.blocks, round: -1 });
    } else if (it.role === 'tool') {
      const call = it.blocks.find((b): b is Call => b.type === 'tool_call');
      const result = it.blocks.find((b): b is Result => b.type === 'tool_result');
      const caller = it.caller !== undefined ? indexOf.get(it.caller) : undefined;
      indexOf.set(it.key, g.length);
      g.push({
        key: it.key,
        step: false,
        text: result?.output ?? '',
        ...(call !== undefined ? { call } : {}),
        ...(result !== undefined ? { result } : {}),
        round: caller !== undefined && g[caller]?.step === true ? caller : lastStep,
      });
    }
  }
  const V = g.length;
  // Results per round and each step's action tokens (its text plus the calls it issued).
  const resultsOf = new Map<number, number[]>();
  for (let i = 0; i < V; i++) {
    const n = g[i] as GNode;
    if (!n.step && n.round >= 0) {
      const list = resultsOf.get(n.round);
      if (list === undefined) resultsOf.set(n.round, [i]);
      else list.push(i);
    }
  }
  const stepTokens = (i: number): ReadonlySet<string> => {
    const set = new Set(stepText(memos, (g[i] as GNode).blocks as readonly Block[]));
    for (const r of resultsOf.get(i) ?? []) {
      const c = (g[r] as GNode).call;
      if (c !== undefined) for (const t of argTokens(memos, c)) set.add(t);
    }
    return set;
  };
  // Dependencies (out-edges toward earlier nodes) in compressed rows: node i owns edges start[i]..start[i+1].
  const deps: Deps = { start: new Int32Array(V + 1), to: [], w: [], kind: [] };
  const addDep = (to: number, w: number, kind: number): void => {
    deps.to.push(to);
    deps.w.push(w);
    deps.kind.push(kind);
  };
  const reused = new Map<string, readonly string[]>();
  let prevStep = -1;
  for (let i = 0; i < V; i++) {
    deps.start[i] = deps.to.length;
    const n = g[i] as GNode;
    if (!n.step) {
      if (n.round >= 0) addDep(n.round, 1, CALL);
      continue;
    }
    if (prevStep >= 0) {
      addDep(prevStep, 1, STEP);
      const mine = stepTokens(i);
      for (const r of resultsOf.get(prevStep) ?? []) {
        const shared: string[] = [];
        if ((g[r] as GNode).result !== undefined) {
          const text = (g[r] as GNode).text.toLowerCase();
          for (const t of mine) if (containsToken(text, t)) shared.push(t);
          shared.sort();
        }
        if (shared.length > 0) {
          addDep(r, 2, REUSE);
          reused.set((g[r] as GNode).key, shared);
        } else addDep(r, 0, ROUND);
      }
    }
    prevStep = i;
  }
  deps.start[V] = deps.to.length;
  const frontier = lastStep;

  const scan = new SpanScan(cache);
  scan.sync(withSummarized ? items : items.filter((it) => it.state !== 'summarized'));
  const { keys: chain, weight: chainWeight } = scan.criticalChain();

  // Failures, and the operations the continuation view lists; supersession is the scan's.
  const failed = new Set<string>();
  const ops: (Operation | undefined)[] = new Array<Operation | undefined>(V);
  for (let i = 0; i < V; i++) {
    const n = g[i] as GNode;
    if (n.step || n.result === undefined) continue;
    const o = resultOp(memos, n.result, n.call);
    if (o.isFail) failed.add(n.key);
    ops[i] = o.op;
  }
  const superseded = scan.supersededResults();

  // The continuation view is built on first read: protection never needs it.
  let views: ViewWriter | undefined;
  // Node and edge lists are built on first read: the rules never need them.
  let nodes: string[] | undefined;
  let edges: SpanEdge[] | undefined;
  return {
    get nodes(): readonly string[] {
      return (nodes ??= g.map((n) => n.key));
    },
    get edges(): readonly SpanEdge[] {
      if (edges === undefined) {
        edges = [];
        for (let i = 0; i < V; i++) {
          for (let e = deps.start[i] as number; e < (deps.start[i + 1] as number); e++) {
            edges.push({ from: (g[i] as GNode).key, to: (g[deps.to[e] as number] as GNode).key, weight: deps.w[e] as number, kind: KINDS[deps.kind[e] as number] as SpanEdgeKind });
          }
        }
      }
      return edges;
    },
    frontier: frontier >= 0 ? (g[frontier] as GNode).key : null,
    criticalChain: chain,
    chainWeight,
    superseded,
    failed,
    reused,
    views: () => (views ??= viewWriter(g, deps, frontier, resultsOf, failed, superseded, ops, reused, new Set(chain))),
  };
}

function firstLine(s: string): string {
  let from = 0;
  while (from < s.length) {
    const nl = s.indexOf('\n', from);
    const end = nl === -1 ? s.length : nl;
    if (s.slice(from, end).trim() !== '') return s.slice(from, end);
    from = end + 1;
  }
  return '';
}

function textOf(blocks: readonly Block[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/** The continuation view of the graph at any allowance: its shortest-path order and candidates found once, its lines written per allowance. */
function viewWriter(
  g: readonly GNode[],
  deps: Deps,
  frontier: number,
  resultsOf: ReadonlyMap<number, readonly number[]>,
  failed: ReadonlySet<string>,
  superseded: ReadonlyMap<string, string>,
  ops: readonly (Operation | undefined)[],
  reused: ReadonlyMap<string, readonly string[]>,
  chain: ReadonlySet<string>,
): ViewWriter {
  const V = g.length;
  // Shortest-path tree from a virtual source joined to the frontier and its own results at cost 0.
  const dist = new Float64Array(V).fill(Infinity);
  const heap = new MinHeap();
  const sources = frontier >= 0 ? [frontier, ...(resultsOf.get(frontier) ?? [])] : g.map((_, i) => i);
  for (const s of sources) {
    dist[s] = 0;
    heap.push(0, s);
  }
  const order: number[] = [];
  const done = new Uint8Array(V);
  for (let top = heap.pop(); top !== undefined; top = heap.pop()) {
    const u = top.value;
    if (done[u] === 1) continue;
    done[u] = 1;
    order.push(u);
    for (let e = deps.start[u] as number; e < (deps.start[u + 1] as number); e++) {
      const to = deps.to[e] as number;
      const nd = top.priority + (COST[deps.kind[e] as number] as number);
      if (nd < (dist[to] as number)) {
        dist[to] = nd;
        heap.push(nd, to);
      }
    }
  }
  order.sort((a, b) => (dist[a] as number) - (dist[b] as number) || b - a);

  type Section = 'next' | 'onDisk' | 'ruledOut' | 'established';
  // Candidates first (cheap), lines built only while the allowance lasts.
  const candidates: { u: number; section: Section; tier: number; paths?: readonly string[] }[] = [];
  const frontierResults = new Set(resultsOf.get(frontier) ?? []);
  const seenPaths = new Set<string>();
  for (const u of order) {
    const n = g[u] as GNode;
    if (n.step) {
      if (u === frontier && n.text.trim() !== '') candidates.push({ u, section: 'next', tier: 0 });
      continue;
    }
    if (failed.has(n.key)) {
      candidates.push({ u, section: 'ruledOut', tier: 1 });
      continue;
    }
    const op = ops[u];
    if (op?.writes === true) {
      const fresh = op.paths.filter((p) => !seenPaths.has(p));
      for (const p of op.paths) seenPaths.add(p);
      if (fresh.length > 0) candidates.push({ u, section: 'onDisk', tier: 1, paths: fresh });
      continue;
    }
    if (frontierResults.has(u)) {
      candidates.push({ u, section: 'next', tier: 0 });
      continue;
    }
    if (superseded.has(n.key)) continue;
    candidates.push({ u, section: 'established', tier: reused.has(n.key) || chain.has(n.key) ? 1 : 2 });
  }
  // Stable sort: by tier, then by the shortest-path order already in place.
  candidates.sort((a, b) => a.tier - b.tier);
  const lineOf = (c: (typeof candidates)[number]): string => {
    const n = g[c.u] as GNode;
    if (n.step) return `- ${oneLine(n.text, 200)}`;
    const name = n.call?.name ?? n.result?.name ?? 'tool';
    const args = oneLine(n.call?.arguments ?? '', 80);
    if (c.section === 'onDisk') return `- ${oneLine((c.paths ?? []).join(', '), 160)} (${name})`;
    const first = oneLine(firstLine(n.result?.output ?? ''), 110);
    if (c.section === 'next') return `- ${name} ${args} → ${first}`;
    if (c.section === 'ruledOut') return `- ${name} ${args}: ${first}`;
    const shared = reused.get(n.key);
    return `- ${name} ${args}: ${shared !== undefined ? oneLine(shared.slice(0, 6).join(', '), 110) : first}`;
  };
  const steps = g.filter((n) => n.step).length;
  const results = g.length - steps;
  const header = `[ctxgit brief] ${steps} ${steps === 1 ? 'step' : 'steps'}, ${results} ${results === 1 ? 'tool result' : 'tool results'}`;
  const titles: Record<Section, string> = { next: 'NEXT:', onDisk: 'ON DISK:', ruledOut: 'RULED OUT:', established: 'ESTABLISHED:' };
  // Each candidate's line and its bytes, made on the first write that reaches it.
  const lines: { line: string; bytes: number }[] = [];
  let orderKeys: string[] | undefined;
  return (allowance) => {
    const taken: Record<Section, string[]> = { next: [], onDisk: [], ruledOut: [], established: [] };
    let used = Buffer.byteLength(header, 'utf8');
    let rejected = 0;
    for (let k = 0; k < candidates.length; k++) {
      if (allowance - used < 8 || rejected >= 64) break;
      const c = candidates[k] as (typeof candidates)[number];
      let made = lines[k];
      if (made === undefined) {
        const line = lineOf(c);
        lines[k] = made = { line, bytes: Buffer.byteLength(line, 'utf8') };
      }
      const cost = made.bytes + 1 + (taken[c.section].length === 0 ? Buffer.byteLength(titles[c.section], 'utf8') + 1 : 0);
      if (used + cost > allowance) {
        rejected++;
        continue;
      }
      rejected = 0;
      used += cost;
      taken[c.section].push(made.line);
    }
    const parts = [header];
    for (const s of ['next', 'onDisk', 'ruledOut', 'established'] as const) if (taken[s].length > 0) parts.push(titles[s], ...taken[s]);
    return {
      next: taken.next,
      onDisk: taken.onDisk,
      ruledOut: taken.ruledOut,
      established: taken.established,
      get order(): readonly string[] {
        return (orderKeys ??= order.map((u) => (g[u] as GNode).key));
      },
      text: parts.join('\n'),
    };
  };
}
