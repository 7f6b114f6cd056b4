import fc from 'fast-check';
import type { Node } from '@ctxgit/dag';
import { runPipeline, RulesCache, RulesOverBudgetError, type ContextItem, type PipelineContext } from '../src/index.js';
import { FoldStore, MIN, quarterTokenizer } from './helpers.js';

export type Event =
  | { kind: 'user' | 'assistant'; words: number; gap: number }
  | { kind: 'tool'; name: string; size: number; path: number; fail: boolean; gap: number };

const WORDS = ['alpha', 'parse_config', 'src/app.py', 'handler', 'Traceback', 'value', 'config_loader', 'tests/test_x.py', 'retry', 'zeta_9'];
const text = (seed: number, n: number): string => Array.from({ length: n }, (_, i) => WORDS[(seed + i * 7) % WORDS.length]).join(' ');

export const event: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ kind: fc.constantFrom('user' as const, 'assistant' as const), words: fc.integer({ min: 1, max: 60 }), gap: fc.integer({ min: 0, max: 90 }) }),
  fc.record({
    kind: fc.constant('tool' as const),
    name: fc.constantFrom('bash', 'open', 'edit', 'todo_list', 'web_search', 'grep'),
    size: fc.integer({ min: 0, max: 6000 }),
    path: fc.integer({ min: 0, max: 3 }),
    fail: fc.boolean(),
    gap: fc.integer({ min: 0, max: 30 }),
  }),
);

/** Nodes from events: tools hang under the last assistant (an assistant is inserted when none yet). */
export function toNodes(events: readonly Event[]): Node[] {
  const nodes: Node[] = [{ id: 'sys', session: 's', seq: 0, createdAt: 0, role: 'system', output: 'rules of the house' }];
  let t = 0;
  let last = 'sys';
  let lastAssistant: string | undefined;
  events.forEach((e, i) => {
    t += e.gap * MIN;
    const id = `n${i}`;
    if (e.kind === 'tool') {
      if (lastAssistant === undefined) {
        lastAssistant = `a${i}`;
        nodes.push({ id: lastAssistant, session: 's', seq: nodes.length, createdAt: t, role: 'assistant', output: 'start', predecessor: last });
        last = lastAssistant;
      }
      const out = (e.fail ? 'Traceback (most recent call last):\n' : '') + text(i, 3) + ' ' + 'o'.repeat(e.size);
      nodes.push({ id, session: 's', seq: nodes.length, createdAt: t, role: 'tool', name: e.name, input: { path: `src/f${e.path}.py` }, output: out, caller: lastAssistant });
    } else {
      nodes.push({ id, session: 's', seq: nodes.length, createdAt: t, role: e.kind, output: text(i, e.words), predecessor: last });
      last = id;
      if (e.kind === 'assistant') lastAssistant = id;
    }
  });
  return nodes;
}

export const STATS = { steps: 0, overBudget: 0, withSummary: 0, withAged: 0, withCleared: 0 };


export interface Replay {
  readonly steps: readonly Step[];
  /** Every fold of the session, by summary key. */
  readonly folds: FoldStore;
}

/** Runs the pipeline turn by turn (split points), locking every `lockEvery`-th parent item; stops at an over-budget error. */
/** One run: the live list it got and gave, what its new summaries folded, the keys of its new nodes. */
export interface Step {
  readonly parent: readonly ContextItem[];
  readonly items: readonly ContextItem[];
  readonly folds: ReadonlyMap<string, readonly ContextItem[]>;
  readonly added: readonly string[];
  readonly ctx: PipelineContext;
}

export function replay(nodes: readonly Node[], cuts: readonly number[], budget: number, epochs: boolean, lockEvery: number): Replay {
  const steps: Step[] = [];
  let items: readonly ContextItem[] = [];
  const folds = new FoldStore();
  // One cache for the session, as a Session keeps one: the runs take the incremental paths.
  const cache = new RulesCache();
  let from = 0;
  const points = [...new Set(cuts.map((c) => Math.min(c, nodes.length)))].sort((a, b) => a - b).concat(nodes.length);
  for (const to of points) {
    if (to <= from) continue;
    const batch = nodes.slice(from, to);
    const now = (batch.at(-1)?.createdAt ?? 0) + MIN;
    const ctx: PipelineContext = { now, tokenizer: quarterTokenizer, historyBudget: budget, band: { epochs }, foldedOf: folds.get, cache };
    const parent = items.map((it, i) => (lockEvery > 0 && i % lockEvery === 0 && it.state !== 'summary' ? { ...it, locked: true } : it));
    let run;
    try {
      run = folds.add(runPipeline(parent, batch, ctx));
      items = run.items;
    } catch (e) {
      if (e instanceof RulesOverBudgetError) {
        STATS.overBudget++;
        break;
      }
      throw e;
    }
    steps.push({ parent, items, folds: run.folds, added: batch.map((n) => n.id), ctx });
    STATS.steps++;
    if (items.some((i) => i.state === 'summary')) STATS.withSummary++;
    if (items.some((i) => i.state === 'aged')) STATS.withAged++;
    if (items.some((i) => i.state === 'cleared')) STATS.withCleared++;
    from = to;
  }
  return { steps, folds };
}

