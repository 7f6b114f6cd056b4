import type { CachePrices } from '@ctxgit/tokenize';
import type { ContextItem } from './item.js';

/**
 * How many times over the reads must have paid the rewrite. A fold also costs detail the prices do not show (the brief
 * is lossy): at 1, short customer-service conversations lost ids their later calls reuse (recall 1.000 → 0.984 at
 * 8k–16k on 40 tau-bench conversations) to save 2–4 %; at 4 they fold as before, and long sessions still save most.
 */
const PATIENCE = 4;

/**
 * Whether folding the runs at `spans` (positions into `items`, ascending) has paid for itself, as a ski rental: the
 * cache reads their freed tokens have cost since they left the tail window (`tailTurns` assistant items ago) reach
 * {@link PATIENCE} times what the fold's rewrite costs, the cache write of everything from the first run on as it will
 * read after the fold. `briefTokens` is what a run's summary costs (at most half the run).
 */
export function foldPays(items: readonly ContextItem[], spans: readonly (readonly number[])[], tailTurns: number, briefTokens: number, prices: CachePrices): boolean {
  const t = tally(items, spans, tailTurns, briefTokens, true);
  return t !== undefined && pays(t, prices);
}

/**
 * False when no runs between `from` and `to` can pay (see {@link foldPays}): every visible item there taken as one
 * run without a brief, its reads not scaled down, bounds what any runs inside can free and have cost. Saves finding
 * the runs (and the critical chain) on the turns that cannot fold.
 */
export function mightPay(items: readonly ContextItem[], from: number, to: number, tailTurns: number, prices: CachePrices): boolean {
  const all: number[] = [];
  for (let i = from; i < to; i++) if ((items[i] as ContextItem).state !== 'summarized') all.push(i);
  const t = tally(items, [all], tailTurns, 0, false);
  return t !== undefined && pays(t, prices);
}

interface Tally {
  /** Token-calls read since the tail window (scaled to the freed share when asked). */
  readonly rent: number;
  readonly freed: number;
  /** Visible tokens from the first run on. */
  readonly after: number;
}

const pays = (t: Tally, prices: CachePrices): boolean => t.freed > 0 && prices.read > 0 && prices.read * t.rent >= PATIENCE * prices.write * (t.after - t.freed);

function tally(items: readonly ContextItem[], spans: readonly (readonly number[])[], tailTurns: number, briefTokens: number, scaled: boolean): Tally | undefined {
  const first = spans[0]?.[0];
  if (first === undefined) return undefined;
  // Assistant items after each position from `first` on: the calls that have read an item since it was added.
  let calls = 0;
  const callsAfter = new Array<number>(items.length - first);
  let after = 0;
  for (let i = items.length - 1; i >= first; i--) {
    const it = items[i] as ContextItem;
    callsAfter[i - first] = calls;
    if (it.state === 'summarized') continue;
    if (it.role === 'assistant') calls++;
    after += it.tokens;
  }
  let rent = 0;
  let freed = 0;
  for (const at of spans) {
    let tokens = 0;
    let read = 0;
    for (const i of at) {
      const t = (items[i] as ContextItem).tokens;
      tokens += t;
      read += t * Math.max(0, (callsAfter[i - first] as number) - tailTurns);
    }
    const saved = tokens - Math.min(briefTokens, Math.floor(tokens / 2));
    if (saved <= 0) continue;
    freed += saved;
    rent += scaled ? (read * saved) / tokens : read;
  }
  return { rent, freed, after };
}
