// The critical chain has one implementation in src (SpanScan, used by protection and by analyzeSpan); this file keeps
// the plain longest-path computation over the dependency graph as a differential oracle.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeSpan, distinctiveTokens, RulesCache, type Block, type ContextItem } from '../src/index.js';
import { containsToken } from '../src/contains-token.js';
import { recordEdit } from '../src/list-lineage.js';
import { SpanScan } from '../src/span-scan.js';

type Call = Extract<Block, { type: 'tool_call' }>;
type Result = Extract<Block, { type: 'tool_result' }>;

/** The longest weighted path ending at the latest step, relaxed over list order (a topological order), oldest first. */
function referenceChain(items: readonly ContextItem[], includeSummarized: boolean): { chain: string[]; weight: number } {
  interface N { key: string; step: boolean; text: string; call?: Call; result?: Result; round: number }
  const g: N[] = [];
  const indexOf = new Map<string, number>();
  let lastStep = -1;
  for (const it of items) {
    if (it.state === 'summary' || (it.state === 'summarized' && !includeSummarized)) continue;
    if (it.role === 'assistant') {
      indexOf.set(it.key, g.length);
      lastStep = g.length;
      g.push({ key: it.key, step: true, text: it.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n'), round: -1 });
    } else if (it.role === 'tool') {
      const call = it.blocks.find((b): b is Call => b.type === 'tool_call');
      const result = it.blocks.find((b): b is Result => b.type === 'tool_result');
      const caller = it.caller === undefined ? undefined : indexOf.get(it.caller);
      indexOf.set(it.key, g.length);
      g.push({ key: it.key, step: false, text: result?.output ?? '', ...(call ? { call } : {}), ...(result ? { result } : {}), round: caller !== undefined && g[caller]?.step === true ? caller : lastStep });
    }
  }
  const V = g.length;
  const resultsOf = (s: number): number[] => g.flatMap((n, i) => (!n.step && n.round === s ? [i] : []));
  const edges: { from: number; to: number; w: number }[] = [];
  let prev = -1;
  g.forEach((n, i) => {
    if (!n.step) {
      if (n.round >= 0) edges.push({ from: i, to: n.round, w: 1 });
      return;
    }
    if (prev >= 0) {
      edges.push({ from: i, to: prev, w: 1 });
      const mine = new Set(distinctiveTokens(n.text));
      for (const r of resultsOf(i)) if (g[r]?.call) for (const t of distinctiveTokens(g[r]!.call!.arguments)) mine.add(t);
      for (const r of resultsOf(prev)) {
        const text = g[r]!.result === undefined ? '' : g[r]!.text.toLowerCase();
        edges.push({ from: i, to: r, w: [...mine].some((t) => containsToken(text, t)) ? 2 : 0 });
      }
    }
    prev = i;
  });
  if (lastStep < 0) return { chain: [], weight: 0 };
  const dist = new Array<number>(V).fill(-Infinity);
  const parent = new Array<number>(V).fill(-1);
  dist[lastStep] = 0;
  let best = lastStep;
  for (let u = lastStep; u >= 0; u--) {
    if (dist[u] === -Infinity) continue;
    for (const e of edges) {
      if (e.from !== u) continue;
      if (dist[u]! + e.w > dist[e.to]!) {
        dist[e.to] = dist[u]! + e.w;
        parent[e.to] = u;
      }
    }
    if (dist[u]! >= dist[best]!) best = u;
  }
  const chain: string[] = [];
  for (let v = best; v >= 0; v = parent[v]!) chain.push(g[v]!.key);
  return { chain, weight: dist[best]! };
}

// A small vocabulary, so that steps reuse the tokens of results often: identifiers, paths, numbers, common words.
const WORDS = ['parse_config', 'src/app.py', 'load_user', 'user_id', 'the', 'fix', 'Traceback', 'error'];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const spec = fc.record({
  role: fc.constantFrom('user', 'assistant', 'assistant', 'tool', 'tool', 'tool'),
  state: fc.constantFrom('full', 'full', 'full', 'aged', 'summarized', 'summary'),
  text,
  args: text,
  name: fc.constantFrom('bash', 'open', 'edit'),
  withCall: fc.boolean(),
  withResult: fc.constantFrom(true, true, true, false),
  callerBack: fc.option(fc.nat({ max: 6 }), { nil: undefined }),
});

type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

function itemsOf(specs: readonly Spec[]): ContextItem[] {
  return specs.map((s, i): ContextItem => {
    const key = `k${i}`;
    const blocks: Block[] =
      s.role !== 'tool'
        ? [{ type: 'text', text: s.text }]
        : [
            ...(s.withCall ? [{ type: 'tool_call' as const, id: `c${i}`, name: s.name, arguments: JSON.stringify({ a: s.args }) }] : []),
            ...(s.withResult || !s.withCall ? [{ type: 'tool_result' as const, callId: `c${i}`, name: s.name, output: s.text }] : []),
          ];
    const caller = s.role === 'tool' && s.callerBack !== undefined ? `k${i - 1 - s.callerBack}` : undefined;
    return { key, sourceNodeId: key, role: s.role, state: s.state, locked: false, blocks, tokens: 1, reason: 'new', touchedAt: i, ...(caller === undefined ? {} : { caller }) };
  });
}

describe('critical chain (differential: src against the plain longest path)', () => {
  it('analyzeSpan gives the longest path on random spans, with and without summarized items', () => {
    let withResults = 0;
    fc.assert(
      fc.property(fc.array(spec, { minLength: 3, maxLength: 40 }), fc.boolean(), (specs, includeSummarized) => {
        const items = itemsOf(specs);
        const a = analyzeSpan(items, { includeSummarized });
        const ref = referenceChain(items, includeSummarized);
        expect(a.criticalChain).toEqual(ref.chain);
        expect(a.chainWeight).toBe(ref.weight);
        if (ref.chain.some((k) => items.find((it) => it.key === k)?.role === 'tool')) withResults++;
      }),
      { numRuns: 300 },
    );
    // The spans exercise the reuse edges: many chains pass through a result.
    expect(withResults).toBeGreaterThan(30);
  });

  it('the incremental scan of a session (lists derived by recorded edits) keeps the same chain after every edit', () => {
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 4 }), (specs, cutsAt, rewrites) => {
        const all = itemsOf(specs);
        const cache = new RulesCache();
        const scan = new SpanScan(cache);
        const cuts = [...new Set(cutsAt.map((c) => c % all.length))].sort((a, b) => a - b).concat(all.length);
        let prev: readonly ContextItem[] = [];
        for (const [k, to] of cuts.entries()) {
          // The items appended since, on top of the list as the previous edits left it.
          let next: readonly ContextItem[] = prev.concat(all.slice(prev.length, to));
          recordEdit(cache, next, prev);
          // Replace one earlier item's content in place (what aging does), recorded as an edit of the longer list.
          const at = rewrites[k];
          if (at !== undefined && next.length > 0) {
            const i = at % next.length;
            const it = next[i] as ContextItem;
            const edited = next.slice();
            edited[i] = { ...it, blocks: it.blocks.map((b) => (b.type === 'tool_result' ? { ...b, output: 'ok' } : b.type === 'text' ? { ...b, text: 'ok' } : b)) };
            recordEdit(cache, edited, next, [i]);
            next = edited;
          }
          scan.sync(next);
          const ref = referenceChain(next, true);
          expect(scan.criticalChain()).toEqual({ keys: ref.chain, weight: ref.weight });
          prev = next;
        }
      }),
      { numRuns: 200 },
    );
  });
});
