import { briefWriter } from '../default-brief.js';
import { foldPays, mightPay } from '../fold-pays.js';
import type { ContextItem } from '../item.js';
import type { RulesOptions, ResolvedRulesOptions } from '../options.js';
import { protectionOf, type Protection } from '../protection.js';
import { FoldIndex } from '../folded-originals.js';
import { foldInto } from '../fold-into.js';
import { resolveRulesOptions } from '../resolve-options.js';
import type { Rule, RuleContext } from '../rule.js';
import { summaryKey } from '../summary-key.js';
import { tailStart } from '../tail-start.js';

interface Run {
  /** Indexes (into the list) of the visible items of the run, in order. */
  readonly at: readonly number[];
}

const foldable = (it: ContextItem, prot: Protection): boolean =>
  it.state !== 'summarized' && !it.locked && it.role !== 'system' && it.pinned !== true && it.isAnchor !== true && !prot.protects(it);

/** Position just after the newest visible summary not in `skip` (0 without one): what lies before it is the cached prefix. */
function afterNewestSummary(items: readonly ContextItem[], skip?: ReadonlySet<string>): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i] as ContextItem;
    if (it.state === 'summary' && skip?.has(it.key) !== true) return i + 1;
  }
  return 0;
}

function runsOf(items: readonly ContextItem[], prot: Protection, from: number, limit: number): Run[] {
  const runs: Run[] = [];
  let cur: number[] = [];
  let group: string | undefined;
  const close = (): void => {
    if (cur.length > 0) runs.push({ at: cur });
    cur = [];
  };
  items.forEach((it, i) => {
    if (it.state === 'summarized' || i < from || i >= limit) return;
    if (!foldable(it, prot)) return close();
    const g = it.attachedFrom ?? '';
    if (cur.length > 0 && g !== group) close();
    group = g;
    cur.push(i);
  });
  close();
  return runs;
}

/**
 * Items a brief reads at most through the summaries its span folds (the rest through their own briefs, whose `VALUES:`
 * and `SAID:` lines carry on). 64 rather than 256: a merge of summaries read 253 originals in 11.5 ms, 64 in 3.3
 * (chained corpus, 5,000 turns; the long sessions of the evaluation identical to three decimals).
 */
const BRIEF_SOURCES = 64;

/** The brief's byte allowance: it grows with the window. */
const briefAllowance = (o: ResolvedRulesOptions, ctx: RuleContext): number => Math.max(o.briefBytes, Math.floor(o.briefShare * ctx.band.historyBudget));

/** What a brief is reckoned to cost in tokens before it is written: a third of its allowance. */
const briefTokens = (o: ResolvedRulesOptions, ctx: RuleContext): number => Math.ceil(briefAllowance(o, ctx) / 3);

const runId = (items: readonly ContextItem[], r: Run): string => `${items[r.at[0] as number]?.key}..${items[r.at.at(-1) as number]?.key}`;

/** The summary that would fold the visible items at `at`, and the tokens it would free; costs the span and its originals, not the list. */
function planFold(l: FoldIndex, at: readonly number[], o: ResolvedRulesOptions, ctx: RuleContext, reason: string): { summary: ContextItem; saved: number } {
  const span = at.map((i) => l.items[i] as ContextItem);
  const folded = span.map((it) => it.key);
  // The brief is written from the span with its summaries opened, newest first, up to BRIEF_SOURCES items.
  const originals = span.some((it) => it.folded !== undefined) ? l.briefSources(folded, BRIEF_SOURCES) : span;
  const key = summaryKey(folded);
  // A summary costs at most half the visible tokens it replaces (not of the originals behind nested summaries, or
  // summaries of summaries grow toward the allowance): start at about 2 bytes a token and halve the allowance while
  // the brief, ID-dense text running under 2 bytes a token, still costs more.
  const spanTokens = span.reduce((s, it) => s + it.tokens, 0);
  const brief = briefWriter(originals, ctx.cache);
  let allowance = Math.min(briefAllowance(o, ctx), Math.max(160, spanTokens * 2));
  let blocks = [{ type: 'text' as const, text: brief(allowance) }];
  let tokens = ctx.countTokens(blocks);
  while (tokens * 2 > spanTokens && allowance > 160) {
    allowance = Math.max(160, allowance >> 1);
    blocks = [{ type: 'text' as const, text: brief(allowance) }];
    tokens = ctx.countTokens(blocks);
  }
  const attachedFrom = span[0]?.attachedFrom;
  const summary: ContextItem = {
    key,
    sourceNodeId: key,
    role: 'user',
    state: 'summary',
    locked: false,
    blocks,
    tokens,
    reason,
    touchedAt: ctx.now,
    folded,
    ...(attachedFrom !== undefined ? { attachedFrom } : {}),
  };
  return { summary, saved: spanTokens - tokens };
}

/** Whether phase 1's runs (after the newest summary, before the tail window, the critical chain protected) have paid for their fold. */
function paysNow(items: readonly ContextItem[], o: ResolvedRulesOptions, ctx: RuleContext): boolean {
  if (o.cacheRead === 0) return false;
  const from = afterNewestSummary(items);
  const to = tailStart(items, o.tailTurns);
  const prices = { read: o.cacheRead, write: o.cacheWrite };
  if (to <= from || !mightPay(items, from, to, o.tailTurns, prices)) return false;
  const runs = runsOf(items, protectionOf(items, o, ctx, 'all'), from, to);
  return foldPays(items, runs.map((r) => r.at), o.tailTurns, briefTokens(o, ctx), prices);
}

interface Fold {
  /** Positions of the folded items, ascending. */
  readonly at: readonly number[];
  readonly summary: ContextItem;
}

/** `items` with each fold's summary inserted before its span, whose items (summaries included) become `summarized` into it; spans ascend and are disjoint. */
function applyFolds(items: readonly ContextItem[], folds: readonly Fold[]): ContextItem[] {
  const into = new Map<number, string>();
  const before = new Map<number, ContextItem>();
  for (const f of folds) {
    before.set(f.at[0] as number, f.summary);
    for (const i of f.at) into.set(i, f.summary.key);
  }
  const out: ContextItem[] = [];
  items.forEach((it, i) => {
    const summary = before.get(i);
    if (summary !== undefined) out.push(summary);
    const key = into.get(i);
    out.push(key === undefined ? it : foldInto(it, key));
  });
  return out;
}

/** Tokens of the live summaries of `items`. */
function summaryTokens(items: readonly ContextItem[]): number {
  let sum = 0;
  for (const it of items) if (it.state === 'summary') sum += it.tokens;
  return sum;
}

/** Where merges of summaries end: after the newest summary, and before the latest round. */
const mergeLimit = (items: readonly ContextItem[]): number => Math.min(afterNewestSummary(items), tailStart(items, 1));

/**
 * The runs of foldable items (before {@link mergeLimit}) that hold two summaries or more, each up to its last summary,
 * when merging them has paid for itself as a fold does (see {@link foldPays}); else none.
 */
function paidMergeRuns(items: readonly ContextItem[], o: ResolvedRulesOptions, ctx: RuleContext): Run[] {
  if (o.cacheRead === 0) return [];
  const prices = { read: o.cacheRead, write: o.cacheWrite };
  const limit = mergeLimit(items);
  if (limit === 0 || !mightPay(items, 0, limit, o.tailTurns, prices)) return [];
  const runs: Run[] = [];
  for (const run of runsOf(items, protectionOf(items, o, ctx, 'all'), 0, limit)) {
    const ends = run.at.flatMap((i, k) => ((items[i] as ContextItem).state === 'summary' ? [k + 1] : []));
    if (ends.length >= 2) runs.push({ at: run.at.slice(0, ends.at(-1)) });
  }
  return runs.length > 0 && foldPays(items, runs.map((r) => r.at), o.tailTurns, briefTokens(o, ctx), prices) ? runs : [];
}

/**
 * Trigger: the live summaries hold more than `summaryShare` of the history budget, or (below it) merging them has
 * paid for itself.
 * Effect: over the share, the oldest run of foldable items holding summaries (before the latest round, up to the
 * newest summary) folds into one summary (reason `fold_summaries`), a summary of summaries that nests them; then the
 * next run, until the summaries left out of the merge (the new ones included) hold at most half the share. Paid, each
 * run holding two summaries or more folds up to its last summary.
 * Reason: each fold adds a summary after the newest; unbounded, they crowd the window on a long session, each fold
 * frees less and folds (each a break of the cached prefix) come more often. Merging many at once rewrites the
 * prefix once, and leaves room for many folds to come. Below the share, a large window would carry them on every call:
 * once their cache reads have cost four times the merge's rewrite (a ski rental, as for a paid fold), the merge is
 * cheaper than carrying them on — soon where cache reads are dear (half the input price on OpenAI's gpt-4o).
 */
function mergeSummaries(l: FoldIndex, o: ResolvedRulesOptions, ctx: RuleContext, paidRuns: () => readonly Run[]): Fold[] {
  const share = o.summaryShare * ctx.band.historyBudget;
  const total = summaryTokens(l.items);
  if (total <= share) return paidMerges(l, paidRuns(), o, ctx);
  // What the merges must take off the summaries' tokens (each merged summary costs up to a third of the brief's bytes).
  let excess = total - share / 2;
  const limit = mergeLimit(l.items);
  const folds: Fold[] = [];
  for (const run of runsOf(l.items, protectionOf(l.items, o, ctx, 'all'), 0, limit)) {
    if (excess <= 0) break;
    // The shortest prefix of the run whose summaries cover the excess, and the brief of their merge.
    let take = 0;
    let summaries = 0;
    let covered = 0;
    for (const i of run.at) {
      const it = l.items[i] as ContextItem;
      take++;
      if (it.state !== 'summary') continue;
      summaries++;
      covered += it.tokens;
      if (covered >= excess + briefTokens(o, ctx)) break;
    }
    if (summaries < 2) continue;
    const at = run.at.slice(0, take);
    const plan = planFold(l, at, o, ctx, 'fold_summaries');
    if (plan.saved <= 0) continue;
    folds.push({ at, summary: plan.summary });
    excess -= covered - plan.summary.tokens;
  }
  return folds;
}

/** Each of the runs ({@link paidMergeRuns} of `l.items`) folded into one summary of summaries. */
function paidMerges(l: FoldIndex, runs: readonly Run[], o: ResolvedRulesOptions, ctx: RuleContext): Fold[] {
  const folds: Fold[] = [];
  for (const run of runs) {
    const plan = planFold(l, run.at, o, ctx, 'fold_summaries');
    if (plan.saved > 0) folds.push({ at: run.at, summary: plan.summary });
  }
  return folds;
}

/**
 * Folding (`fold@14`): when the visible history passes the band's upper mark (or the cache epoch is open
 * and it is above the lower mark), the oldest run of consecutive foldable items after the newest summary (the
 * cached prefix ends there; below the emergency mark nothing before it is rewritten) folds into one `summary`
 * item (key `sm_<hash of folded keys>`, `folded` = the keys of the run's items), repeated down to the lower mark.
 * Folded items become `summarized` with `mergedInto`. A summary inside a run folds like any other item: it
 * becomes `summarized` and keeps its own `folded`, so summaries nest and a fold rewrites only the items it
 * folds, never the originals of an earlier summary ({@link foldedOriginals} walks the nesting). Never folded:
 * system items, the latest user turn, pinned, anchor, locked, protected-tool items and the protected part of
 * the critical chain; a run never mixes items of different attach blocks.
 * Phases, each down to the lower mark: (1) runs before the tail window, the whole critical chain protected;
 * (2) while above the lower mark, runs reaching into the tail, never the latest round (the last assistant step and
 * its results): the prefix is rewritten from the first fold on anyway, so one fold turn goes down to the lower mark
 * rather than leaving the next turns a fold each; (3) while still above the lower mark, only the newest chain results
 * within `chainShare` protected (summary reason `fold_chain_share`); (4) while still above the lower mark, no chain
 * result protected (reason `fold_chain`), its runs starting after the newest summary that phases 1-3 did not make,
 * so that theirs fold again with the chain results between them: one break to the lower mark, not one every few calls
 * of a long chain. Runs start after the newest summary, or anywhere (earlier summaries included) while above the
 * emergency mark. Other summaries have reason `fold`.
 * Below the marks a fold is made when it has paid for itself (`cacheRead` > 0): phase 1's runs (after the newest
 * summary, before the tail window, the critical chain protected) fold whole once the cache reads of the tokens they
 * would free, counted from when each item left the tail window, cost four times the fold's rewrite (the cache write
 * of everything from the first run on, as it reads after the fold), at `cacheRead` and `cacheWrite` prices: a ski
 * rental, patient because a brief is lossy. They fold in one pass, however many (`maxFoldAttempts` does not hold
 * them): one prefix break, where a backlog taken a few runs a call would break the prefix and scan the list on every
 * call. A window the conversation never fills still stops carrying finished work at a tenth of its price on every call.
 * A fold turn must buy headroom: when the rules leave the history above the upper mark and it was not above the
 * emergency mark, the runner keeps the parent's list for the turn (see `BandOptions.epochs`), so a turn breaks the
 * cached prefix only to get under the upper mark, or because it must.
 * Summaries stay bounded: when the rule folds and the live summaries hold more than `summaryShare` of the history
 * budget, first the oldest of them merge into one summary of summaries (reason `fold_summaries`; it nests them as any
 * fold does), until those left hold at most half the share; the cached prefix is then rewritten from the oldest
 * summary once, rather than a little at every fold. Below the share, the summaries merge once the merge has paid for
 * itself as a paid fold does (their cache reads since they left the tail window reach four times its rewrite): a
 * window the summaries never fill does not carry them on every call either.
 * Only the shortest prefix of a run that reaches the lower mark folds; each fold must free tokens (a run
 * that cannot is not tried again); the protection and the runs are found again after each fold. At most
 * `maxFoldAttempts` folds happen per run, unless the history is still above the emergency mark after them:
 * then folding goes on to the lower mark in passes, each folding every run it needs on the protection found
 * at its start (an imported session can need hundreds of folds). The brief is
 * {@link defaultBrief} of the span, its summaries opened down to their originals, the newest first, while at most 64
 * items come out; a summary left closed is read through its brief, whose values and words carry on. A fold thus
 * reads a bounded number of items, never the whole history its summaries nest; under
 * `min(max(briefBytes, briefShare × history budget), max(160, 2 × tokens of the span))` bytes, halved (down to 160)
 * while the brief costs more than half the span's tokens.
 *
 * @param options - See {@link RulesOptions}.
 * @returns The rule.
 * The rule does not refuse: when the history stays above the emergency mark, the runner does
 * (`RulesOverBudgetError`), after the rules that follow (the cap) had their turn.
 * @example
 * ```ts
 * const rules = [foldRule({ briefBytes: 1000, maxFoldAttempts: 4 })];
 * ```
 */
export function foldRule(options: RulesOptions = {}): Rule {
  const o = resolveRulesOptions(options);
  return {
    name: 'fold',
    version: 14,
    apply(items, ctx) {
      const band = ctx.band;
      let h = ctx.historyTokens(items);
      const triggered = h > band.upper || (band.epochs && h > band.lower && ctx.epochOpen(items));
      // Below the marks, a fold of the finished runs after the newest summary (or a merge of the summaries) is made once
      // it has paid for itself. The merges' runs are found at most once a turn: the trigger and the merge both ask.
      let paidRuns: Run[] | undefined;
      const paidRunsOnce = (): Run[] => (paidRuns ??= paidMergeRuns(items, o, ctx));
      const paid = !triggered && (paysNow(items, o, ctx) || paidRunsOnce().length > 0);
      if (!triggered && !paid) return items;
      let cur = new FoldIndex(items, ctx.foldedOf);
      // The live summaries past their share merge first: what they free is folded no more.
      const merges = mergeSummaries(cur, o, ctx, paidRunsOnce);
      if (merges.length > 0) {
        cur = new FoldIndex(applyFolds(cur.items, merges), ctx.foldedOf);
        h = ctx.historyTokens(cur.items);
      }
      let attempts = 0;
      // Past `maxFoldAttempts` folds the rule stops, unless the history is still above the emergency mark: then
      // the cap is lifted and folding goes on down to the lower mark (an imported session may need hundreds).
      let lifted = false;
      const tried = new Set<string>();
      // The summaries this loop made: phase 4 folds them again.
      const made = new Set<string>();
      // Phase 1 folds before the tail window with the whole critical chain protected; phase 2 (still above
      // the lower mark) reaches into the tail but never into the latest round; phase 3 (still above the lower
      // mark) protects only the newest part of the chain within `chainShare`; phase 4 (still above the lower
      // mark) protects no chain result. Each phase folds down to the lower mark.
      let phase = 1;
      // The runs of `cur` in `phase`, found again only when either changes, and the first one not yet passed over.
      let runs: Run[] | undefined;
      let next = 0;
      const usable = (r: Run): boolean => !tried.has(`${phase}:${runId(cur.items, r)}`) && (r.at.length > 1 || cur.items[r.at[0] as number]?.state !== 'summary');
      while (paid ? phase === 1 : h > band.lower) {
        if (attempts >= o.maxFoldAttempts && !lifted) {
          if (h <= band.emergency) break;
          lifted = true;
        }
        const chain = phase <= 2 ? 'all' : phase === 3 ? 'share' : 'none';
        if (runs === undefined) {
          // Below the emergency mark nothing before the newest summary is rewritten: it is the cached prefix. Phase 4
          // may fold again the summaries this loop made: the prefix is rewritten from the first of them on anyway.
          const from = h > band.emergency ? 0 : afterNewestSummary(cur.items, phase === 4 ? made : undefined);
          runs = runsOf(cur.items, protectionOf(cur.items, o, ctx, chain), from, phase === 1 ? tailStart(cur.items, o.tailTurns) : tailStart(cur.items, 1));
          next = 0;
        }
        const reason = phase <= 2 ? 'fold' : phase === 3 ? 'fold_chain_share' : 'fold_chain';
        // One fold, then the protection and the runs are found again on the new list; past the cap, or when the folds
        // are paid ones, every run of this list folds in one pass (its protection as it was before the pass).
        const plans: Fold[] = [];
        for (; next < runs.length && (paid || h > band.lower) && (lifted || paid || plans.length === 0); next++) {
          const run = runs[next] as Run;
          if (!usable(run)) continue;
          // Shortest prefix whose tokens cover the excess plus the brief's size (a paid fold takes whole runs).
          const need = paid ? Number.POSITIVE_INFINITY : h - band.lower;
          let take = run.at.length;
          let sum = 0;
          for (let k = 0; k < run.at.length; k++) {
            sum += (cur.items[run.at[k] as number] as ContextItem).tokens;
            if (sum >= need + briefTokens(o, ctx)) {
              take = k + 1;
              break;
            }
          }
          let at: readonly number[] = run.at.slice(0, take);
          let plan = planFold(cur, at, o, ctx, reason);
          if (plan.saved < need && take < run.at.length) {
            at = run.at;
            plan = planFold(cur, at, o, ctx, reason);
          }
          if (plan.saved <= 0) {
            tried.add(`${phase}:${runId(cur.items, run)}`);
            continue;
          }
          plans.push({ at, summary: plan.summary });
          made.add(plan.summary.key);
          attempts++;
          h -= plan.saved;
        }
        if (plans.length > 0) {
          cur = new FoldIndex(applyFolds(cur.items, plans), ctx.foldedOf);
          runs = undefined;
          continue;
        }
        // The first fold broke the cached prefix: folding on rewrites nothing more, and saves the next turns a fold
        // of their own; a chain left whole above the lower mark would bring the band back within a few calls.
        if (paid || h <= band.lower || phase === 4) break;
        phase++;
        runs = undefined;
      }
      // Above the emergency mark still: the cap (or, failing it, the runner's refusal) takes over.
      return cur.items;
    },
  };
}
