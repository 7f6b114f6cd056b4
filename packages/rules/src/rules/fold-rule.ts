import { defaultBrief } from '../default-brief.js';
import { RulesOverBudgetError } from '../errors.js';
import type { ContextItem } from '../item.js';
import type { RulesOptions, ResolvedRulesOptions } from '../options.js';
import { protectionOf, type Protection } from '../protection.js';
import { resolveRulesOptions } from '../resolve-options.js';
import type { Rule, RuleContext } from '../rule.js';
import { summaryKey } from '../summary-key.js';
import { tailStart } from '../tail-start.js';

interface Run {
  /** Indexes (into the list) of the visible items of the run, in order. */
  readonly at: readonly number[];
}

const foldable = (it: ContextItem, prot: Protection, locked: ReadonlySet<string>): boolean =>
  it.state !== 'summarized' &&
  !it.locked &&
  it.role !== 'system' &&
  it.pinned !== true &&
  it.isAnchor !== true &&
  !prot.protects(it) &&
  // Re-folding a summary re-points its originals, so none of them may be locked.
  (it.state !== 'summary' || !(it.folded ?? []).some((k) => locked.has(k)));

function runsOf(items: readonly ContextItem[], prot: Protection, limit: number): Run[] {
  const locked = new Set(items.filter((it) => it.locked).map((it) => it.key));
  const runs: Run[] = [];
  let cur: number[] = [];
  let group: string | undefined;
  const close = (): void => {
    if (cur.length > 0) runs.push({ at: cur });
    cur = [];
  };
  items.forEach((it, i) => {
    if (it.state === 'summarized' || i >= limit) return;
    if (!foldable(it, prot, locked)) return close();
    const g = it.attachedFrom ?? '';
    if (cur.length > 0 && g !== group) close();
    group = g;
    cur.push(i);
  });
  close();
  return runs;
}

const runId = (items: readonly ContextItem[], r: Run): string => `${items[r.at[0] as number]?.key}..${items[r.at.at(-1) as number]?.key}`;

/** Folds the visible items at `at` into one summary; returns the new list and the tokens it frees. */
function foldAt(items: readonly ContextItem[], at: readonly number[], o: ResolvedRulesOptions, ctx: RuleContext, reason: string): { items: ContextItem[]; saved: number } {
  const byKey = new Map(items.map((it) => [it.key, it] as const));
  const span = at.map((i) => items[i] as ContextItem);
  const originalKeys = new Set<string>();
  for (const it of span) {
    if (it.state === 'summary') for (const k of it.folded ?? []) originalKeys.add(k);
    else originalKeys.add(it.key);
  }
  const originals = items.filter((it) => originalKeys.has(it.key));
  const folded = originals.map((it) => it.key);
  const key = summaryKey(folded);
  // The brief gets at most half the originals' size (about 2 bytes per token), within the allowance.
  const spanTokens = span.reduce((s, it) => s + it.tokens, 0);
  const allowance = Math.min(o.briefBytes, Math.max(160, originals.reduce((s, it) => s + it.tokens, 0) * 2));
  const blocks = [{ type: 'text' as const, text: defaultBrief(originals, allowance) }];
  const tokens = ctx.countTokens(blocks);
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
  const spanKeys = new Set(span.map((it) => it.key));
  const out: ContextItem[] = [];
  const first = at[0] as number;
  items.forEach((it, i) => {
    if (i === first) out.push(summary);
    if (it.state === 'summary' && spanKeys.has(it.key)) return;
    if (originalKeys.has(it.key)) {
      const base = byKey.get(it.key) as ContextItem;
      out.push(base.state === 'summarized' ? { ...base, mergedInto: key } : { ...base, state: 'summarized', reason: 'folded', mergedInto: key });
    } else out.push(it);
  });
  const saved = spanTokens - tokens;
  return { items: out, saved };
}

/**
 * Folding (`fold@1`): when the visible history passes the band's upper mark (or the cache epoch is open
 * and it is above the lower mark), the oldest run of consecutive foldable items folds into one `summary`
 * item (key `sm_<hash of folded keys>`, `folded` = the original keys), repeated down to the lower mark.
 * Folded items become `summarized` with `mergedInto`; a summary inside a run is re-folded and its originals
 * join the new one. Never folded: system items, the latest user turn, pinned, anchor, locked, protected-tool
 * items and the protected part of the critical chain; a run never mixes items of different attach blocks.
 * Phases, each down to the lower mark and entered only while the history stays above the upper mark:
 * (1) runs before the tail window, the whole critical chain protected; (2) runs reaching into the tail, never
 * the latest round (the last assistant step and its results); (3) only the newest chain results within
 * `chainShare` protected (summary reason `fold_chain_share`); (4) above the emergency mark, no chain result
 * protected (reason `fold_emergency`). Other summaries have reason `fold`.
 * Only the shortest prefix of a run that reaches the lower mark folds; each fold must free tokens (a run
 * that cannot is not tried again); at most `maxFoldAttempts` folds happen per run. The brief is {@link defaultBrief} (the continuation view of the span) under
 * `min(briefBytes, max(160, 2 × tokens of the originals))` bytes.
 *
 * @param options - See {@link RulesOptions}.
 * @returns The rule.
 * @throws RulesOverBudgetError when the history stays above the emergency mark.
 * @example
 * ```ts
 * const rules = [foldRule({ briefBytes: 1000, maxFoldAttempts: 4 })];
 * ```
 */
export function foldRule(options: RulesOptions = {}): Rule {
  const o = resolveRulesOptions(options);
  return {
    name: 'fold',
    version: 1,
    apply(items, ctx) {
      const band = ctx.band;
      let h = ctx.historyTokens(items);
      const triggered = h > band.upper || (band.epochs && h > band.lower && ctx.epochOpen(items));
      if (!triggered) return items;
      let cur = items;
      let attempts = 0;
      const tried = new Set<string>();
      // Phase 1 folds before the tail window with the whole critical chain protected; phase 2 (still above
      // the upper mark) reaches into the tail but never into the latest round; phase 3 (still above the upper
      // mark) protects only the newest part of the chain within `chainShare`; phase 4 (above the emergency
      // mark) protects no chain result. Each phase folds down to the lower mark.
      let phase = 1;
      while (h > band.lower && attempts < o.maxFoldAttempts) {
        const chain = phase <= 2 ? 'all' : phase === 3 ? 'share' : 'none';
        const prot = protectionOf(cur, o, ctx, chain);
        const limit = phase === 1 ? tailStart(cur, o.tailTurns) : tailStart(cur, 1);
        const runs = runsOf(cur, prot, limit).filter((r) => !tried.has(`${phase}:${runId(cur, r)}`));
        const run = runs.find((r) => r.at.length > 1 || cur[r.at[0] as number]?.state !== 'summary');
        if (run === undefined) {
          if (phase < 3 && h > band.upper) phase++;
          else if (phase === 3 && h > band.emergency) phase++;
          else break;
          continue;
        }
        const reason = phase <= 2 ? 'fold' : phase === 3 ? 'fold_chain_share' : 'fold_emergency';
        // Shortest prefix whose tokens cover the excess plus the brief's size.
        const need = h - band.lower;
        let take = run.at.length;
        let sum = 0;
        for (let k = 0; k < run.at.length; k++) {
          sum += (cur[run.at[k] as number] as ContextItem).tokens;
          if (sum >= need + Math.ceil(o.briefBytes / 3)) {
            take = k + 1;
            break;
          }
        }
        let folded = foldAt(cur, run.at.slice(0, take), o, ctx, reason);
        if (folded.saved < need && take < run.at.length) folded = foldAt(cur, run.at, o, ctx, reason);
        if (folded.saved <= 0) {
          tried.add(`${phase}:${runId(cur, run)}`);
          continue;
        }
        attempts++;
        cur = folded.items;
        h -= folded.saved;
      }
      if (h > band.emergency) throw new RulesOverBudgetError(h, band.emergency, attempts);
      return cur;
    },
  };
}
