import { analyzeSpan } from './analyze-span.js';
import type { ContextItem } from './item.js';
import type { ResolvedRulesOptions } from './options.js';
import type { RuleContext } from './rule.js';
import type { SpanAnalysis } from './span-analysis.js';

/** What rules must not touch on one list, and the analysis it came from. */
export interface Protection {
  /** Keys no rule may age, clear or fold. */
  readonly keys: ReadonlySet<string>;
  /** Key of the latest (non-summary) user item, if any. */
  readonly latestUser: string | undefined;
  readonly analysis: SpanAnalysis;
}

const memo = new WeakMap<readonly ContextItem[], Map<string, Protection>>();

const toolName = (it: ContextItem): string | undefined => {
  for (const b of it.blocks) if (b.type === 'tool_call' || b.type === 'tool_result') return b.name.toLowerCase();
  return undefined;
};

/** How much of the critical chain is protected: all of it, its newest part within `chainShare`, or none. */
export type ChainLimit = 'all' | 'share' | 'none';

/**
 * Protected keys: system items, the latest user item, pinned and anchor items, protected tools, and the
 * tool results of the critical chain (all, or newest first while their tokens fit in `chainShare` of the
 * history budget, or none). Memoized per list.
 */
export function protectionOf(items: readonly ContextItem[], options: ResolvedRulesOptions, ctx: RuleContext, chainLimit: ChainLimit = 'all'): Protection {
  const id = `${chainLimit}:${options.briefBytes}:${options.chainShare}:${options.graphProtection}:${ctx.band.historyBudget}:${[...options.protectedTools].join(',')}`;
  let byOpts = memo.get(items);
  if (byOpts === undefined) memo.set(items, (byOpts = new Map()));
  const hit = byOpts.get(id);
  if (hit !== undefined) return hit;
  const keys = new Set<string>();
  let latestUser: string | undefined;
  const byKey = new Map<string, ContextItem>();
  for (const it of items) {
    byKey.set(it.key, it);
    if (it.state === 'summarized') continue;
    if (it.role === 'user' && it.state !== 'summary') latestUser = it.key;
    const name = toolName(it);
    if (it.role === 'system' || it.pinned === true || it.isAnchor === true || (it.role === 'tool' && name !== undefined && options.protectedTools.has(name))) {
      keys.add(it.key);
    }
  }
  if (latestUser !== undefined) keys.add(latestUser);
  const analysis = analyzeSpan(items, { briefBytes: options.briefBytes, includeSummarized: true });
  if (options.graphProtection && chainLimit !== 'none') {
    const allowance = chainLimit === 'all' ? Infinity : options.chainShare * ctx.band.historyBudget;
    let used = 0;
    for (let i = analysis.criticalChain.length - 1; i >= 0; i--) {
      const it = byKey.get(analysis.criticalChain[i] as string) as ContextItem;
      if (it.role !== 'tool' || it.state === 'summarized') continue;
      if (used + it.tokens > allowance) break;
      used += it.tokens;
      keys.add(it.key);
    }
  }
  const out: Protection = { keys, latestUser, analysis };
  byOpts.set(id, out);
  return out;
}
