import type { Node } from '@ctxgit/dag';
import { checkInvariants, extendValid, isValid, learnValid } from './invariants.js';
import { diffCounts } from './diff-counts.js';
import { firstChanged } from './first-changed.js';
import { totals } from './totals.js';
import { defaultRules } from './default-rules.js';
import { RulesInputError } from './errors.js';
import type { ContextItem } from './item.js';
import { itemFromNode } from './item-from-node.js';
import type { PipelineContext, PipelineInput, PipelineReport, PipelineResult, RuleReport } from './pipeline.js';
import { pipelineVersion } from './pipeline-version.js';
import { resolveBand } from './resolve-band.js';
import type { Rule, RuleContext } from './rule.js';
import { countBlockTokens } from './token-memo.js';

const isItem = (x: PipelineInput): x is ContextItem => 'blocks' in x && 'key' in x;

/** Validated pipeline run shared by the sync and async entry points. */
export function executePipeline(
  parentItems: readonly ContextItem[],
  newNodes: readonly PipelineInput[],
  context: PipelineContext,
): PipelineResult & { readonly ctx: RuleContext; readonly version: string } {
  if (!Number.isFinite(context.now)) throw new RulesInputError('context.now', 'expected milliseconds since the epoch');
  if (typeof context.tokenizer?.count !== 'function') throw new RulesInputError('context.tokenizer', 'expected a Tokenizer');
  const band = resolveBand(context.historyBudget, context.band);
  const rules: readonly Rule[] = context.rules ?? defaultRules();
  const version = pipelineVersion(rules);
  // A list that passed the invariants has unique keys: its key set is built only for many new entries.
  const checked = isValid(parentItems);
  let keys: Set<string> | undefined;
  let lastActivity = -Infinity;
  for (const it of parentItems) {
    if (!checked) {
      keys ??= new Set();
      if (keys.has(it.key)) throw new RulesInputError('parentItems', `duplicate key ${it.key}`);
      keys.add(it.key);
    }
    if (it.touchedAt > lastActivity) lastActivity = it.touchedAt;
  }
  if (newNodes.length > 16) keys ??= new Set(parentItems.map((it) => it.key));
  const taken = (key: string): boolean => {
    if (keys !== undefined) return keys.has(key);
    for (const p of parentItems) if (p.key === key) return true;
    return added.some((a) => a.key === key);
  };
  const added: ContextItem[] = [];
  for (const x of newNodes) {
    const it = isItem(x) ? x : itemFromNode(x as Node, context.tokenizer);
    if (taken(it.key)) throw new RulesInputError('newNodes', `key ${it.key} is already in the list`);
    if (it.state === 'summary' || it.state === 'summarized') throw new RulesInputError('newNodes', `item ${it.key}: ${it.state} items come only from folding`);
    keys?.add(it.key);
    added.push(isItem(x) ? { ...it, tokens: countBlockTokens(context.tokenizer, it.blocks) } : it);
  }
  const countTokens = (blocks: ContextItem['blocks']): number => countBlockTokens(context.tokenizer, blocks);
  const historyTokens = (items: readonly ContextItem[]): number => totals(items).history;
  let epoch: boolean | undefined;
  const ctx: RuleContext = {
    now: context.now,
    tokenizer: context.tokenizer,
    band,
    countTokens,
    historyTokens,
    epochOpen(items) {
      epoch ??=
        !band.epochs ||
        historyTokens(items) > band.upper ||
        (parentItems.length > 0 && context.now - lastActivity >= band.coldAfterMs);
      return epoch;
    },
  };
  let cur: readonly ContextItem[] = added.length === 0 ? parentItems : [...parentItems, ...added];
  extendValid(parentItems, cur);
  const reports: RuleReport[] = [];
  for (const rule of rules) {
    const raw = rule.apply(cur, ctx);
    const prev = cur;
    // Items of the same key at the same index are found without a map; the map is built only when a rule moved keys.
    let before: Map<string, ContextItem> | undefined;
    const prior = (it: ContextItem, i: number): ContextItem | undefined => {
      const q = prev[i];
      if (q !== undefined && q.key === it.key) return q;
      before ??= new Map(prev.map((x) => [x.key, x] as const));
      return before.get(it.key);
    };
    // The rule's list, with token counts corrected where the content changed (a copy only when one is).
    let fixed: ContextItem[] | undefined;
    if (raw !== cur) {
      for (let i = 0; i < raw.length; i++) {
        const it = raw[i] as ContextItem;
        if (prev[i] === it) continue;
        const p = prior(it, i);
        if (p === it) continue;
        const tokens = p !== undefined && p.blocks === it.blocks ? p.tokens : countTokens(it.blocks);
        if (tokens === it.tokens) continue;
        fixed ??= [...raw];
        fixed[i] = { ...it, tokens };
      }
    }
    const next = raw === cur ? cur : (fixed ?? raw);
    if (next !== cur) checkInvariants(rule.name, cur, next);
    reports.push(diffCounts(rule.name, cur, next));
    cur = next;
  }
  // Later runs on this list skip the whole-list checks of unchanged items.
  learnValid(cur);
  const t = totals(cur);
  const sum = (f: keyof Omit<RuleReport, 'rule'>): number => reports.reduce((s, r) => s + r[f], 0);
  const report: PipelineReport = {
    added: added.length,
    capped: sum('capped'),
    aged: sum('aged'),
    cleared: sum('cleared'),
    folded: sum('folded'),
    summaries: sum('summaries'),
    epoch: epoch === true,
    summarizerFallbacks: 0,
    rules: reports,
  };
  return { items: cur, totalTokens: t.total, historyTokens: t.history, firstChangedIndex: firstChanged(parentItems, cur), report, ctx, version };
}
