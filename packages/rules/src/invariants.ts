import { RulesInvariantError } from './errors.js';
import { deepEqual } from './deep-equal.js';
import type { ContextItem, ItemState } from './item.js';
import type { RulesCache } from './rules-cache.js';

const RANK: Record<ItemState, number> = { full: 0, aged: 1, cleared: 2, summarized: 3, summary: -1 };

/** Lists of a cache known to satisfy every whole-list invariant (each was checked as a successor, or extended from one with new items). */
function newValidLists(): WeakSet<readonly ContextItem[]> {
  return new WeakSet();
}
const folding = (it: ContextItem): boolean => it.state === 'summary' || it.state === 'summarized';

/** Whether `list` is known to satisfy every whole-list invariant (unique keys, consistent summaries). */
export function isValid(cache: RulesCache, list: readonly ContextItem[]): boolean {
  return cache.part(newValidLists).has(list);
}

/** Checks the whole-list invariants of `list` once (as its own successor, so nothing but them can fail) and records it valid when they hold; never throws. */
export function learnValid(cache: RulesCache, list: readonly ContextItem[]): void {
  if (isValid(cache, list)) return;
  try {
    checkInvariants(cache, '', list, list);
  } catch {
    // An invalid list stays unknown: it is checked in full whenever a rule changes it.
  }
}

/** Records that `list` is `base` plus new non-summary items with fresh keys, so it is as valid as `base`. */
export function extendValid(cache: RulesCache, base: readonly ContextItem[], list: readonly ContextItem[]): void {
  const valid = cache.part(newValidLists);
  if (valid.has(base)) valid.add(list);
}

/**
 * Throws `RulesInvariantError` naming `rule` when `next` is not a legal successor of `prev`; `changed`: the only
 * positions where they differ, when known. Lists `cache` knows valid are checked only where they differ.
 */
export function checkInvariants(cache: RulesCache, rule: string, prev: readonly ContextItem[], next: readonly ContextItem[], changed?: readonly number[]): void {
  const valid = cache.part(newValidLists);
  const fail = (invariant: ConstructorParameters<typeof RulesInvariantError>[1], key: string, detail: string): never => {
    throw new RulesInvariantError(rule, invariant, key, detail);
  };
  if (changed !== undefined && valid.has(prev) && prev.length === next.length && changed.every((i) => inPlace(prev[i] as ContextItem, next[i] as ContextItem))) {
    // Only the positions at `changed` differ (recorded by the runner): the same per-item checks, on them alone.
    for (const i of changed) checkItem(prev[i] as ContextItem, next[i] as ContextItem, fail);
    valid.add(next);
    return;
  }
  if (aligned(valid, prev, next)) {
    // Same keys at the same places and no summary or summarized item touched: the whole-list invariants hold as
    // they held for `prev`, so only the changed items are checked, in the order the full check meets them.
    for (let i = 0; i < prev.length; i++) {
      const p = prev[i] as ContextItem;
      const n = next[i] as ContextItem;
      if (p !== n) checkItem(p, n, fail);
    }
    valid.add(next);
    return;
  }
  const nextByKey = new Map<string, ContextItem>();
  for (const it of next) {
    if (nextByKey.has(it.key)) fail('duplicate_key', it.key, 'two items share the key');
    nextByKey.set(it.key, it);
  }
  const prevKeys = new Set<string>();
  for (const p of prev) {
    prevKeys.add(p.key);
    const n = nextByKey.get(p.key);
    if (n === undefined) fail('vanished', p.key, p.state === 'summary' ? 'a summary was dropped' : 'an item was dropped');
    else checkItem(p, n, fail);
  }
  // Folding only inserts summaries: the items of prev keep their order.
  let j = 0;
  for (const n of next) {
    if (!prevKeys.has(n.key)) {
      // A summary made and absorbed in the same run arrives summarized.
      if (n.state !== 'summary' && n.folded === undefined) fail('bad_new_item', n.key, 'a rule added an item that is not a summary');
      continue;
    }
    if (prev[j]?.key !== n.key) fail('reordered', n.key, 'items changed order');
    j++;
  }
  // A summary (visible, or folded into a later one) stands before the items it folded, which are summarized into it.
  const indexOf = new Map(next.map((it, i) => [it.key, i] as const));
  // The keys a summary folded, as a set: built only for the summaries that items of this list are summarized into
  // (the folds of this run), not for every summary (one made from a long import folds thousands).
  const foldedSets = new Map<string, ReadonlySet<string>>();
  const foldedSet = (key: string): ReadonlySet<string> | undefined => {
    const folded = nextByKey.get(key)?.folded;
    if (folded === undefined) return undefined;
    let set = foldedSets.get(key);
    if (set === undefined) foldedSets.set(key, (set = new Set(folded)));
    return set;
  };
  let latestUser: ContextItem | undefined;
  next.forEach((n, i) => {
    if (n.role === 'user' && n.state !== 'summary' && n.state !== 'summarized') latestUser = n;
    // A summary of an earlier list keeps its folded items under it (checked when it was made; `folded` is kept).
    if ((n.folded !== undefined || n.state === 'summary') && !prevKeys.has(n.key)) {
      const folded = n.folded ?? [];
      if (folded.length === 0) fail('summary_dangling', n.key, 'a summary lists no folded items');
      for (const k of folded) {
        const o = nextByKey.get(k);
        if (o === undefined || o.state !== 'summarized' || o.mergedInto !== n.key) fail('summary_dangling', n.key, `folded item ${k} is missing or not merged into it`);
      }
    }
    if (n.state === 'summarized') {
      const into = n.mergedInto ?? '';
      if (foldedSet(into)?.has(n.key) !== true || (indexOf.get(into) as number) > i) fail('summarized_dangling', n.key, `mergedInto ${String(n.mergedInto)} is not an earlier summary listing it`);
      if (n.role === 'system' || n.pinned === true) fail('protected_folded', n.key, `a ${n.pinned === true ? 'pinned' : 'system'} item was folded`);
    }
  });
  // The latest user turn of prev must still be visible.
  let prevLatestUser: ContextItem | undefined;
  for (const p of prev) if (p.role === 'user' && p.state !== 'summary' && p.state !== 'summarized') prevLatestUser = p;
  if (prevLatestUser !== undefined && latestUser?.key !== prevLatestUser.key) fail('protected_folded', prevLatestUser.key, 'the latest user turn was folded');
  valid.add(next);
}

/** Whether `n` may stand where `p` stood without touching the whole-list invariants: the same key, no summary or summarized item. */
const inPlace = (p: ContextItem, n: ContextItem): boolean => p === n || (p.key === n.key && !folding(p) && !folding(n));

/** Whether `prev` is known valid and `next` holds the same keys at the same places, changing no summary or summarized item. */
function aligned(valid: WeakSet<readonly ContextItem[]>, prev: readonly ContextItem[], next: readonly ContextItem[]): boolean {
  if (!valid.has(prev) || prev.length !== next.length) return false;
  for (let i = 0; i < prev.length; i++) if (!inPlace(prev[i] as ContextItem, next[i] as ContextItem)) return false;
  return true;
}

/** The per-item invariants: a locked item unchanged, role, source and a summary's folded items kept, the state only tightened. */
function checkItem(p: ContextItem, n: ContextItem, fail: (invariant: 'locked_changed' | 'loosened' | 'summary_dangling', key: string, detail: string) => never): void {
  if (p.locked && !deepEqual(p, n)) fail('locked_changed', p.key, 'a locked item was modified');
  if (n.role !== p.role || n.sourceNodeId !== p.sourceNodeId) fail('locked_changed', p.key, 'role or source node changed');
  if (p.folded !== n.folded && !deepEqual(p.folded, n.folded)) fail('summary_dangling', p.key, 'the folded items of a summary changed');
  if (p.state === 'summary' ? n.state !== 'summary' && n.state !== 'summarized' : n.state === 'summary' || RANK[n.state] < RANK[p.state]) {
    fail('loosened', p.key, `state went from ${p.state} to ${n.state}`);
  }
}
