import type { ContextItem } from './item.js';
import { changesSince, editedFrom } from './list-lineage.js';
import { lowerBound } from './lower-bound.js';
import type { RulesCache } from './rules-cache.js';

/** Sums and counts over a list that the rules consult on every run. */
export interface ListFacts {
  /** Tokens of visible (not `summarized`) items. */
  readonly total: number;
  /** Tokens of visible non-system items. */
  readonly history: number;
  /** Largest `touchedAt` (-Infinity for an empty list). */
  readonly lastActivity: number;
  /** Positions of the `full` tool items, ascending. */
  readonly fullTools: readonly number[];
  /** Positions of the `aged` tool items, ascending. */
  readonly agedTools: readonly number[];
}

interface Tally {
  total: number;
  history: number;
  lastActivity: number;
  fullTools: number[];
  agedTools: number[];
}

const MAX_WALK = 16;

/** The facts of a cache, per list. */
function newFactsMemo(): WeakMap<readonly ContextItem[], ListFacts> {
  return new WeakMap();
}

const isFullTool = (it: ContextItem): boolean => it.role === 'tool' && it.state === 'full';
const isAgedTool = (it: ContextItem): boolean => it.role === 'tool' && it.state === 'aged';

function count(t: Tally, it: ContextItem, sign: 1 | -1): void {
  if (it.state === 'summarized') return;
  t.total += sign * it.tokens;
  if (it.role !== 'system') t.history += sign * it.tokens;
}

/** Puts `i` into or out of the ascending positions `xs`. */
function place(xs: number[], i: number, member: boolean): void {
  const lo = lowerBound(xs, i);
  const there = xs[lo] === i;
  if (member && !there) xs.splice(lo, 0, i);
  else if (!member && there) xs.splice(lo, 1);
}

function append(t: Tally, it: ContextItem, i: number): void {
  count(t, it, 1);
  if (it.touchedAt > t.lastActivity) t.lastActivity = it.touchedAt;
  if (isFullTool(it)) t.fullTools.push(i);
  else if (isAgedTool(it)) t.agedTools.push(i);
}

function scan(list: readonly ContextItem[]): ListFacts {
  const t: Tally = { total: 0, history: 0, lastActivity: -Infinity, fullTools: [], agedTools: [] };
  list.forEach((it, i) => append(t, it, i));
  return t;
}

/** The facts of `base` carried to `list` through the positions that changed; undefined when the largest `touchedAt` went down. */
function carry(cache: RulesCache, base: ListFacts, from: readonly ContextItem[], list: readonly ContextItem[]): ListFacts | undefined {
  const c = changesSince(cache, list, from);
  if (c === undefined) return undefined;
  const t: Tally = { ...base, fullTools: base.fullTools.slice(), agedTools: base.agedTools.slice() };
  for (const i of c.changed) {
    const p = from[i] as ContextItem;
    const n = list[i] as ContextItem;
    if (p === n) continue;
    if (p.touchedAt === base.lastActivity && n.touchedAt < p.touchedAt) return undefined;
    count(t, p, -1);
    count(t, n, 1);
    if (n.touchedAt > t.lastActivity) t.lastActivity = n.touchedAt;
    if (isFullTool(p) !== isFullTool(n)) place(t.fullTools, i, isFullTool(n));
    if (isAgedTool(p) !== isAgedTool(n)) place(t.agedTools, i, isAgedTool(n));
  }
  for (let i = c.appendedFrom; i < list.length; i++) append(t, list[i] as ContextItem, i);
  return t;
}

/** The facts of a list: carried from the nearest ancestor recorded in `cache` whose facts are known (cost: what changed), else counted. */
export function factsOf(cache: RulesCache, list: readonly ContextItem[]): ListFacts {
  const memo = cache.part(newFactsMemo);
  const hit = memo.get(list);
  if (hit !== undefined) return hit;
  let from = editedFrom(cache, list);
  for (let steps = 1; from !== undefined && steps < MAX_WALK && !memo.has(from); steps++) from = editedFrom(cache, from);
  const base = from === undefined ? undefined : memo.get(from);
  const facts = (base !== undefined && from !== undefined ? carry(cache, base, from, list) : undefined) ?? scan(list);
  memo.set(list, facts);
  return facts;
}
