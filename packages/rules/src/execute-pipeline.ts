import type { Node } from '@ctxgit/dag';
import { checkInvariants, extendValid, isValid, learnValid } from './invariants.js';
import { diffCounts } from './diff-counts.js';
import { firstChanged } from './first-changed.js';
import { factsOf } from './list-facts.js';
import { hasKey } from './key-index.js';
import { changesSince, recordEdit } from './list-lineage.js';
import { defaultRules } from './default-rules.js';
import { RulesInputError } from './errors.js';
import type { ContextItem } from './item.js';
import { itemFromNode } from './item-from-node.js';
import type { PipelineContext, PipelineInput, PipelineReport, PipelineResult, RuleReport } from './pipeline.js';
import { pipelineVersion } from './pipeline-version.js';
import { resolveBand } from './resolve-band.js';
import type { Rule, RuleContext } from './rule.js';
import { countBlockTokens } from './token-memo.js';
import { settle } from './settle-rule-output.js';

/** The default rules, made once so that their memos serve every run. */
let standard: readonly Rule[] | undefined;

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
  const rules: readonly Rule[] = context.rules ?? (standard ??= defaultRules());
  const version = pipelineVersion(rules);
  // A list that passed the invariants has unique keys; others are checked once here.
  if (!isValid(parentItems)) {
    const keys = new Set<string>();
    for (const it of parentItems) {
      if (keys.has(it.key)) throw new RulesInputError('parentItems', `duplicate key ${it.key}`);
      keys.add(it.key);
    }
  }
  const lastActivity = parentItems.length > 0 ? factsOf(parentItems).lastActivity : -Infinity;
  const added: ContextItem[] = [];
  const addedKeys = new Set<string>();
  for (const x of newNodes) {
    const it = isItem(x) ? x : itemFromNode(x as Node, context.tokenizer);
    if (addedKeys.has(it.key) || hasKey(parentItems, it.key)) throw new RulesInputError('newNodes', `key ${it.key} is already in the list`);
    if (it.state === 'summary' || it.state === 'summarized') throw new RulesInputError('newNodes', `item ${it.key}: ${it.state} items come only from folding`);
    addedKeys.add(it.key);
    added.push(isItem(x) ? { ...it, tokens: countBlockTokens(context.tokenizer, it.blocks) } : it);
  }
  const countTokens = (blocks: ContextItem['blocks']): number => countBlockTokens(context.tokenizer, blocks);
  const historyTokens = (items: readonly ContextItem[]): number => factsOf(items).history;
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
  let cur: readonly ContextItem[] = added.length === 0 ? parentItems : parentItems.concat(added);
  recordEdit(cur, parentItems);
  extendValid(parentItems, cur);
  const reports: RuleReport[] = [];
  for (const rule of rules) {
    const next = settle(cur, rule.apply(cur, ctx), countTokens);
    const at = next === cur ? undefined : changesSince(next, cur, 2)?.changed;
    if (next !== cur) checkInvariants(rule.name, cur, next, at);
    reports.push(diffCounts(rule.name, cur, next, at));
    cur = next;
  }
  // Later runs on this list skip the whole-list checks of unchanged items.
  learnValid(cur);
  const t = factsOf(cur);
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
  const changes = changesSince(cur, parentItems, 64);
  const changed = changes?.changed.filter((i) => cur[i] !== parentItems[i]);
  return {
    items: cur,
    totalTokens: t.total,
    historyTokens: t.history,
    firstChangedIndex: firstChanged(parentItems, cur, changes),
    ...(changed === undefined ? {} : { changedPositions: changed }),
    report,
    ctx,
    version,
  };
}
