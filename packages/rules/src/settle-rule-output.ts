import type { ContextItem } from './item.js';
import { changesSince, recordEdit } from './list-lineage.js';
import type { RulesCache } from './rules-cache.js';

/** Positions where `raw` holds another item of the same key as `cur`, when it kept every key in place (same length); else undefined. */
function inPlace(cache: RulesCache, cur: readonly ContextItem[], raw: readonly ContextItem[]): number[] | undefined {
  if (raw.length !== cur.length) return undefined;
  const recorded = changesSince(cache, raw, cur, 1);
  if (recorded !== undefined) return recorded.changed.filter((i) => raw[i] !== cur[i]);
  const changed: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const n = raw[i] as ContextItem;
    const p = cur[i] as ContextItem;
    if (n === p) continue;
    if (n.key !== p.key) return undefined;
    changed.push(i);
  }
  return changed;
}

/**
 * A rule's list with token counts corrected where the content changed (a copy only when one is). When the rule
 * kept every key in place, only the changed positions are looked at and the edit of `cur` is recorded in `cache`.
 */
export function settle(cache: RulesCache, cur: readonly ContextItem[], raw: readonly ContextItem[], countTokens: (item: ContextItem) => number): readonly ContextItem[] {
  if (raw === cur) return cur;
  const changed = inPlace(cache, cur, raw);
  let fixed: ContextItem[] | undefined;
  const fix = (i: number, p: ContextItem | undefined): void => {
    const it = raw[i] as ContextItem;
    if (p === it) return;
    const tokens = p !== undefined && p.blocks === it.blocks ? p.tokens : countTokens(it);
    if (tokens === it.tokens) return;
    fixed ??= raw.slice();
    fixed[i] = { ...it, tokens };
  };
  if (changed !== undefined) {
    const recounted: number[] = [];
    for (const i of changed) {
      const had = fixed?.[i];
      fix(i, cur[i]);
      if (fixed !== undefined && fixed[i] !== had) recounted.push(i);
    }
    // The rule may know its own list (it is recorded as an edit of `cur`); the recount is an edit of it.
    recordEdit(cache, raw, cur, changed);
    if (fixed === undefined) return raw;
    recordEdit(cache, fixed, raw, recounted);
    return fixed;
  }
  // Keys moved (a fold): items of the same key at the same index are found without a map; the map only when needed.
  let before: Map<string, ContextItem> | undefined;
  for (let i = 0; i < raw.length; i++) {
    const it = raw[i] as ContextItem;
    if (cur[i] === it) continue;
    const q = cur[i];
    if (q !== undefined && q.key === it.key) fix(i, q);
    else fix(i, (before ??= new Map(cur.map((x) => [x.key, x] as const))).get(it.key));
  }
  return fixed ?? raw;
}
