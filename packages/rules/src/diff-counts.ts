import { deepEqual } from './deep-equal.js';
import type { ContextItem } from './item.js';
import type { RuleReport } from './pipeline.js';

/** Per-rule counts from the difference of two lists; `at`: the only positions where they differ, when known. */
export function diffCounts(rule: string, prev: readonly ContextItem[], next: readonly ContextItem[], at?: readonly number[]): RuleReport {
  let changed = 0, capped = 0, aged = 0, cleared = 0, folded = 0, summaries = 0;
  if (prev === next) return { rule, changed, capped, aged, cleared, folded, summaries };
  // Items of the same key at the same index are found without a map; the map is built only when keys moved.
  let before: Map<string, ContextItem> | undefined;
  const count = at?.length ?? next.length;
  for (let k = 0; k < count; k++) {
    const i = at === undefined ? k : (at[k] as number);
    const it = next[i] as ContextItem;
    const q = prev[i];
    if (q === it) continue;
    let p: ContextItem | undefined;
    if (q !== undefined && q.key === it.key) p = q;
    else {
      before ??= new Map(prev.map((x) => [x.key, x] as const));
      p = before.get(it.key);
    }
    if (p === undefined) {
      if (it.state === 'summary') summaries++;
      continue;
    }
    if (p === it) continue;
    // a state, reason or fold that moved is a change: the deep comparison (whole blocks) is left for the rest
    if (p.state !== it.state || p.reason !== it.reason || p.mergedInto !== it.mergedInto || !deepEqual({ ...p, tokens: 0 }, { ...it, tokens: 0 })) changed++;
    if (it.reason === 'capped' && p.reason !== 'capped') capped++;
    if (it.state === 'aged' && p.state === 'full') aged++;
    if (it.state === 'cleared' && p.state !== 'cleared') cleared++;
    if (it.state === 'summarized' && p.state !== 'summarized' && p.state !== 'summary') folded++;
  }
  return { rule, changed, capped, aged, cleared, folded, summaries };
}
