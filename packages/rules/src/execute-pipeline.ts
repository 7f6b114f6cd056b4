import type { Node } from '@ctxgit/dag';
import { checkInvariants, extendValid, isValid, learnValid } from './invariants.js';
import { diffCounts } from './diff-counts.js';
import { firstChanged } from './first-changed.js';
import { factsOf } from './list-facts.js';
import { SUMMARY_MARKER } from './summary-marker.js';
import { hasKey } from './key-index.js';
import { changesSince, recordEdit } from './list-lineage.js';
import { readBriefAhead } from './default-brief.js';
import { defaultRules } from './default-rules.js';
import { RulesInputError, RulesOverBudgetError, type RefusedRequest } from './errors.js';
import type { ContextItem } from './item.js';
import { itemOfNode } from './item-from-node.js';
import type { PipelineContext, PipelineInput, PipelineReport, PipelineResult, RequestFrame, RuleReport } from './pipeline.js';
import { pipelineVersion } from './pipeline-version.js';
import { resolveBand } from './resolve-band.js';
import type { Rule, RuleContext } from './rule.js';
import { RulesCache } from './rules-cache.js';
import { countBlockTokens } from './token-memo.js';
import { settle } from './settle-rule-output.js';

/** The default rules of a cache, made once so that their memos serve every run that shares the cache. */
function newStandardRules(): readonly Rule[] {
  return defaultRules();
}

const isItem = (x: PipelineInput): x is ContextItem => 'blocks' in x && 'key' in x;

/** Validated pipeline run shared by the sync and async entry points. */
export function executePipeline(
  parentItems: readonly ContextItem[],
  newNodes: readonly PipelineInput[],
  context: PipelineContext,
): PipelineResult & { readonly ctx: RuleContext; readonly version: string } {
  if (!Number.isFinite(context.now)) throw new RulesInputError('context.now', 'expected milliseconds since the epoch');
  if (typeof context.tokenizer?.count !== 'function') throw new RulesInputError('context.tokenizer', 'expected a Tokenizer');
  const frame = context.request;
  if (frame !== undefined) checkFrame(frame);
  const cache = context.cache ?? new RulesCache();
  const countTokens = tokenCounter(cache, context, frame);
  // In a request, a summary's text follows the marker render puts before it: counted where the budget is the request.
  const marker = frame?.overhead === undefined ? 0 : context.tokenizer.count(SUMMARY_MARKER);
  const itemTokens = (it: ContextItem): number => countTokens(it.blocks) + (it.state === 'summary' ? marker : 0);
  const rules: readonly Rule[] = context.rules ?? cache.part(newStandardRules);
  const version = pipelineVersion(rules);
  // A list that passed the invariants has unique keys; others are checked once here.
  if (!isValid(cache, parentItems)) {
    const keys = new Set<string>();
    for (const it of parentItems) {
      if (keys.has(it.key)) throw new RulesInputError('parentItems', `duplicate key ${it.key}`);
      if (it.state === 'summarized') throw new RulesInputError('parentItems', `item ${it.key} is summarized: pass the live list (folded items live under their summary, see context.foldedOf)`);
      keys.add(it.key);
    }
  }
  const lastActivity = parentItems.length > 0 ? factsOf(cache, parentItems).lastActivity : -Infinity;
  const added: ContextItem[] = [];
  const addedKeys = new Set<string>();
  for (const x of newNodes) {
    const it = isItem(x) ? x : itemOfNode(x as Node, (blocks) => countBlockTokens(cache, context.tokenizer, blocks));
    if (addedKeys.has(it.key) || hasKey(cache, parentItems, it.key)) throw new RulesInputError('newNodes', `key ${it.key} is already in the list`);
    if (it.state === 'summary' || it.state === 'summarized') throw new RulesInputError('newNodes', `item ${it.key}: ${it.state} items come only from folding`);
    addedKeys.add(it.key);
    added.push(isItem(x) || frame?.overhead !== undefined ? { ...it, tokens: countTokens(it.blocks) } : it);
  }
  const system = systemTokens(parentItems) + systemTokens(added);
  const band = resolveBand(historyBudgetOf(context, frame, system), context.band);
  const historyTokens = (items: readonly ContextItem[]): number => factsOf(cache, items).history;
  let epoch: boolean | undefined;
  // A cold cache (the newest parent item older than `coldAfterMs`): the cached prefix is gone, rewriting it is free.
  const cold = parentItems.length > 0 && context.now - lastActivity >= band.coldAfterMs;
  const ctx: RuleContext = {
    now: context.now,
    tokenizer: context.tokenizer,
    band,
    countTokens,
    historyTokens,
    ...(context.foldedOf === undefined ? {} : { foldedOf: context.foldedOf }),
    cache,
    epochOpen(items) {
      epoch ??= !band.epochs || historyTokens(items) > band.upper || cold;
      return epoch;
    },
  };
  let cur: readonly ContextItem[] = added.length === 0 ? parentItems : parentItems.concat(added);
  recordEdit(cache, cur, parentItems);
  extendValid(cache, parentItems, cur);
  const start = cur;
  let reports: RuleReport[] = [];
  for (const rule of rules) {
    const next = settle(cache, cur, rule.apply(cur, ctx), itemTokens);
    const at = next === cur ? undefined : changesSince(cache, next, cur, 2)?.changed;
    if (next !== cur) checkInvariants(cache, rule.name, cur, next, at);
    reports.push(diffCounts(rule.name, cur, next, at));
    cur = next;
  }
  // With folding, an epoch that leaves the history above the upper mark bought no headroom: the next turn would break
  // the cached prefix again. Below the emergency mark, with a warm cache, the turn keeps the parent's list instead.
  const folding = rules.some((r) => r.name === 'fold');
  if (folding && band.epochs && epoch === true && !cold && cur !== start && historyTokens(start) <= band.emergency && historyTokens(cur) > band.upper) {
    cur = start;
    epoch = false;
    reports = reports.map((r) => diffCounts(r.rule, start, start, undefined));
  }
  // Folded items leave the live list: each new summary takes the items it folded along.
  const sum = (f: keyof Omit<RuleReport, 'rule'>): number => reports.reduce((s, r) => s + r[f], 0);
  const { live, folds } = cur.some((it) => it.state === 'summarized') ? splitFolds(cur) : { live: cur, folds: new Map<string, ContextItem[]>() };
  const t = factsOf(cache, live);
  // No result above the emergency mark when the pipeline folds (the fold's contract, checked once every later rule,
  // the cap, had its turn) or has a request frame (above it, the request would not fit the window).
  const enforced = frame !== undefined || folding;
  if (enforced && t.history > band.emergency) throw new RulesOverBudgetError(t.history, band.emergency, sum('summaries'), frame === undefined ? undefined : refused(live, frame, system, t.total));
  // Later runs on this list skip the whole-list checks of unchanged items.
  learnValid(cache, live);
  const report: PipelineReport = {
    added: added.length,
    capped: sum('capped'),
    aged: sum('aged'),
    cleared: sum('cleared'),
    folded: sum('folded'),
    summaries: sum('summaries'),
    epoch: epoch === true,
    summarizerFallbacks: 0,
    rewrittenTokens: 0,
    keptPrefixTokens: 0,
    rules: reports,
  };
  const changes = live === cur ? changesSince(cache, cur, parentItems, 64) : undefined;
  const changed = changes?.changed.filter((i) => cur[i] !== parentItems[i]);
  const firstChangedIndex = firstChanged(parentItems, live, changes);
  // A fold's brief reads the values and words of each block it takes: read instead as the block first shows (the
  // items before the first change were read on an earlier turn).
  if (folding) readBriefAhead(firstChangedIndex === 0 ? live : live.slice(firstChangedIndex), cache);
  let rewrittenTokens = 0;
  for (let i = firstChangedIndex; i < parentItems.length; i++) {
    const it = parentItems[i] as ContextItem;
    if (it.state !== 'summarized') rewrittenTokens += it.tokens;
  }
  const keptPrefixTokens = (parentItems.length === 0 ? 0 : factsOf(cache, parentItems).total) - rewrittenTokens;
  return {
    items: live,
    folds,
    totalTokens: t.total,
    historyTokens: t.history,
    firstChangedIndex,
    ...(changed === undefined ? {} : { changedPositions: changed }),
    report: { ...report, rewrittenTokens, keptPrefixTokens },
    ctx,
    version,
  };
}

const wholeTokens = (name: string, v: number | undefined, min: number): number => {
  const n = v ?? 0;
  if (!Number.isSafeInteger(n) || n < min) throw new RulesInputError(`request.${name}`, `expected an integer number of tokens >= ${min}, got ${String(v)}`);
  return n;
};

function checkFrame(frame: RequestFrame): void {
  wholeTokens('window', frame.window, 1);
  wholeTokens('outputReserve', frame.outputReserve, 0);
  wholeTokens('fixedTokens', frame.fixedTokens, 0);
  const o = frame.overhead;
  if (o !== undefined) for (const k of ['perMessage', 'perToolCall', 'perRequest'] as const) wholeTokens(`overhead.${k}`, o[k], 0);
}

/** Tokens of blocks as the request holds them: their text, plus the message wrappers of the frame's format. */
function tokenCounter(cache: RulesCache, context: PipelineContext, frame: RequestFrame | undefined): (blocks: ContextItem['blocks']) => number {
  const o = frame?.overhead;
  if (o === undefined) return (blocks) => countBlockTokens(cache, context.tokenizer, blocks);
  return (blocks) => countBlockTokens(cache, context.tokenizer, blocks) + o.perMessage + (blocks.some((b) => b.type === 'tool_call') ? o.perToolCall : 0);
}

/** The live list of `items` (without `summarized` ones) and, per summary, the items folded into it, in order. */
function splitFolds(items: readonly ContextItem[]): { live: ContextItem[]; folds: Map<string, ContextItem[]> } {
  const live: ContextItem[] = [];
  const folds = new Map<string, ContextItem[]>();
  for (const it of items) {
    if (it.state !== 'summarized') live.push(it);
    else {
      const into = it.mergedInto as string;
      const list = folds.get(into);
      if (list === undefined) folds.set(into, [it]);
      else list.push(it);
    }
  }
  return { live, folds };
}

function systemTokens(items: readonly ContextItem[]): number {
  let n = 0;
  for (const it of items) if (it.role === 'system' && it.state !== 'summarized') n += it.tokens;
  return n;
}

/** The history budget: the one given, or what the frame leaves of the window, whichever is smaller. */
function historyBudgetOf(context: PipelineContext, frame: RequestFrame | undefined, system: number): number {
  if (frame === undefined) {
    if (context.historyBudget === undefined) throw new RulesInputError('historyBudget', 'expected a positive number of tokens (or a request frame)');
    return context.historyBudget;
  }
  const left = frame.window - (frame.outputReserve ?? 0) - (frame.fixedTokens ?? 0) - (frame.overhead?.perRequest ?? 0) - system;
  if (left <= 0) throw new RulesOverBudgetError(0, 0, 0, requestFigures(frame, system, 0, system));
  return Math.min(context.historyBudget ?? left, left);
}

function requestFigures(frame: RequestFrame, system: number, latestRound: number, total: number): RefusedRequest {
  const fixed = frame.fixedTokens ?? 0;
  const perRequest = frame.overhead?.perRequest ?? 0;
  return {
    window: frame.window,
    outputReserve: frame.outputReserve ?? 0,
    fixedTokens: fixed,
    systemTokens: system + perRequest,
    latestRoundTokens: latestRound,
    requestTokens: total + fixed + perRequest,
  };
}

/** The figures of a refused request: its parts, the latest round from the last user turn on. */
function refused(items: readonly ContextItem[], frame: RequestFrame, system: number, total: number): RefusedRequest {
  let latest = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i] as ContextItem;
    if (it.state !== 'summarized' && it.role !== 'system') latest += it.tokens;
    if (it.role === 'user' && it.state !== 'summary' && it.state !== 'summarized') break;
  }
  return requestFigures(frame, system, latest, total);
}
