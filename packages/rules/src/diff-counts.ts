import { deepEqual } from './deep-equal.js';
import type { ContextItem } from './item.js';
import type { RuleReport } from './pipeline.js';

/** Per-rule counts from the difference of two lists. */
export function diffCounts(rule: string, prev: readonly ContextItem[], next: readonly ContextItem[]): RuleReport {
  let changed = 0, capped = 0, aged = 0, cleared = 0, folded = 0, summaries = 0;
  if (prev === next) return { rule, changed, capped, aged, cleared, folded, summaries };
  // Items of the same key at the same index are found without a map; the map is built only when keys moved.
  let before: Map<string, ContextItem> | undefined;
  for (let i = 0; i < next.length; i++) {
    const n = next[i] as ContextItem;
    const q = prev[i];
    if (q === n) continue;
    let p: ContextItem | undefined;
    if (q !== undefined && q.key === n.key) p = q;
    else {
      before ??= new Map(prev.map((it) => [it.key, it] as const));
      p = before.get(n.key);
    }
    if (p === undefined) {
      if (n.state === 'summary') summaries++;
      continue;
    }
    if (p === n) continue;
    if (!deepEqual({ ...p, tokens: 0 }, { ...n, tokens: 0 })) changed++;
    if (n.reason === 'capped' && p.reason !== 'capped') capped++;
    if (n.state === 'aged' && p.state === 'full') aged++;
    if (n.state === 'cleared' && p.state !== 'cleared') cleared++;
    if (n.state === 'summarized' && p.state !== 'summarized') folded++;
  }
  return { rule, changed, capped, aged, cleared, folded, summaries };
}
