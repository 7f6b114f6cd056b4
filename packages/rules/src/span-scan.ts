import type { Block, ContextItem } from './item.js';
import { containsToken } from './contains-token.js';
import { distinctiveTokens } from './distinctive-tokens.js';
import { isFailedResult } from './is-failed-result.js';
import { operationPaths, type Operation } from './operation-paths.js';
import { changesSince } from './list-lineage.js';
import { lowerBound } from './lower-bound.js';
import type { RulesCache } from './rules-cache.js';

type Call = Extract<Block, { type: 'tool_call' }>;
type Result = Extract<Block, { type: 'tool_result' }>;

/** Undo record: `map.set(key, …)` happened at graph node `at`; `prev` is the value before (`had` false: absent). */
interface Undo {
  readonly at: number;
  readonly map: Map<string, unknown>;
  readonly key: string;
  readonly had: boolean;
  readonly prev: unknown;
}

/** Per-content memos of the scans of a cache (pure functions of immutable blocks, so keyed by the block objects). */
interface ScanMemos {
  readonly fail: WeakMap<Result, boolean>;
  readonly op: WeakMap<Result, { readonly call: Call | undefined; readonly op: Operation; readonly callKey: string }>;
  readonly text: WeakMap<readonly Block[], ReadonlySet<string>>;
  readonly args: WeakMap<Call, ReadonlySet<string>>;
  readonly reuses: WeakMap<Result, { readonly mine: ReadonlySet<string>; readonly reuses: boolean }>;
}

function newScanMemos(): ScanMemos {
  return { fail: new WeakMap(), op: new WeakMap(), text: new WeakMap(), args: new WeakMap(), reuses: new WeakMap() };
}

/** The per-content memos of the span graphs of `cache`. */
export function scanMemos(cache: RulesCache): ScanMemos {
  return cache.part(newScanMemos);
}

/** Distinctive tokens of a step's text. */
export function stepText(memos: ScanMemos, blocks: readonly Block[]): ReadonlySet<string> {
  let t = memos.text.get(blocks);
  if (t === undefined) memos.text.set(blocks, (t = distinctiveTokens(blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n'))));
  return t;
}

/** Distinctive tokens of a call's arguments. */
export function argTokens(memos: ScanMemos, c: Call): ReadonlySet<string> {
  let t = memos.args.get(c);
  if (t === undefined) memos.args.set(c, (t = distinctiveTokens(c.arguments)));
  return t;
}

/** What a tool result tells the supersession: whether it failed, the paths its operation reads or writes, and the identity of its call. */
export function resultOp(memos: ScanMemos, result: Result, call: Call | undefined): { readonly isFail: boolean; readonly op: Operation; readonly callKey: string } {
  let isFail = memos.fail.get(result);
  if (isFail === undefined) memos.fail.set(result, (isFail = isFailedResult(result.output, result.isError)));
  let o = memos.op.get(result);
  if (o === undefined || o.call !== call) {
    const name = call?.name ?? result.name;
    const args = call?.arguments ?? '';
    o = { call, op: operationPaths(name, args, result.output), callKey: `${name}\u0000${args}` };
    memos.op.set(result, o);
  }
  return { isFail, op: o.op, callKey: o.callKey };
}

/**
 * The part of {@link analyzeSpan} (with `includeSummarized`) that protection needs — the tool results of the
 * critical chain and the superseded results — kept up to date across the lists of a session: graph nodes are
 * the non-summary assistant and tool items, whose sequence only grows across calls (folding turns items
 * `summarized` but keeps them in the graph). A sync walks the list comparing references — from the first position
 * that changed since the last synced list when the list was derived from it by recorded edits, else from the
 * start; from the first graph node whose key, blocks or caller differ it undoes the supersession state (an undo
 * log) and scans again, so a call costs the work from the first changed node to the end.
 *
 * The chain equals analyzeSpan's: the longest path from the frontier passes every step; between a step and the
 * previous one it takes, when there is one, the result of the previous round with the highest index below the
 * step that shares a distinctive token with the step (weight 3 against 1), else the direct step edge.
 */
export class SpanScan {
  private readonly memos: ScanMemos;
  private keys: string[] = [];
  private blocks: (readonly Block[])[] = [];
  private callers: (string | undefined)[] = [];
  private isStep: boolean[] = [];
  /** Round of each result (graph index of its step, -1 none); -1 for steps. */
  private round: number[] = [];
  /** Latest step at or before each node (-1 none). */
  private lastStepAt: number[] = [];
  private readonly indexOf = new Map<string, number>();
  private readonly resultsOf = new Map<number, number[]>();
  /** Per step: graph index of its chosen chain result (-1: the direct step edge). */
  private chosen: number[] = [];
  private readonly pendingByCall = new Map<string, unknown>();
  private readonly pendingByPath = new Map<string, unknown>();
  private readonly pathIds = new Map<string, unknown>();
  private readonly supersededMap = new Map<string, unknown>();
  private log: Undo[] = [];
  /** Keys of the chosen results. */
  private readonly chainKeys = new Set<string>();
  /** Position of each graph node in the last synced list. */
  private at: number[] = [];
  /** The last synced list. */
  private synced: readonly ContextItem[] | undefined;
  /** Incremented by every sync that changed anything. */
  version = 0;

  /** A scan whose lineage of lists and per-content memos are those of `cache`. */
  constructor(private readonly cache: RulesCache) {
    this.memos = scanMemos(cache);
  }

  /** Key of the first graph node, to pick the scan of a session. */
  get firstKey(): string | undefined {
    return this.keys[0];
  }

  /** Brings the state to `items`. */
  sync(items: readonly ContextItem[]): void {
    let j = 0;
    let i = 0;
    // Positions before the first change since the last synced list hold the same items: start the walk there.
    const c = this.synced === undefined ? undefined : changesSince(this.cache, items, this.synced);
    if (c !== undefined) {
      i = Math.min(c.changed[0] ?? c.appendedFrom, c.appendedFrom);
      j = lowerBound(this.at, i);
    }
    const n = items.length;
    const known = this.keys.length;
    for (; i < n; i++) {
      const it = items[i] as ContextItem;
      if (it.state === 'summary' || (it.role !== 'assistant' && it.role !== 'tool')) continue;
      if (j >= known || this.keys[j] !== it.key || this.blocks[j] !== it.blocks || this.callers[j] !== it.caller || this.isStep[j] !== (it.role === 'assistant')) break;
      this.at[j] = i;
      j++;
    }
    this.synced = items;
    if (i === n && j === known) return;
    this.version++;
    const removedRound = this.rewind(j);
    const from = Math.min(j, removedRound);
    for (; i < n; i++) {
      const it = items[i] as ContextItem;
      if (it.state === 'summary' || (it.role !== 'assistant' && it.role !== 'tool')) continue;
      this.at.push(i);
      this.add(it);
    }
    this.rechain(from);
  }

  /** Each superseded result (key) and the later result that superseded it first, as of the last sync, in the order found. */
  supersededResults(): Map<string, string> {
    return new Map(this.supersededMap as Map<string, string>);
  }

  /** Whether the result `key` is superseded, as of the last sync. */
  superseded(key: string): boolean {
    return this.supersededMap.has(key);
  }

  /** Keys of the chain's tool results, newest first, as of the last sync. */
  *chainResultsNewestFirst(): Generator<string> {
    for (let s = this.chosen.length - 1; s >= 0; s--) {
      const r = this.chosen[s] as number;
      if (r >= 0) yield this.keys[r] as string;
    }
  }

  /**
   * The critical chain as of the last sync, oldest first: every step from the first to the frontier (the latest
   * step) and, between a step and the one before it, the result it reuses when it chose one; `weight`: 3 for each
   * reused result (reuse edge 2 + call edge 1), 1 for each direct step edge.
   */
  criticalChain(): { readonly keys: readonly string[]; readonly weight: number } {
    const keys: string[] = [];
    let weight = 0;
    let s = this.keys.length > 0 ? (this.lastStepAt[this.keys.length - 1] as number) : -1;
    while (s >= 0) {
      keys.push(this.keys[s] as string);
      const prev = s > 0 ? (this.lastStepAt[s - 1] as number) : -1;
      if (prev < 0) break;
      const r = this.chosen[s] as number;
      if (r >= 0) keys.push(this.keys[r] as string);
      weight += r >= 0 ? 3 : 1;
      s = prev;
    }
    return { keys: keys.reverse(), weight };
  }

  /** Whether `key` is a tool result of the chain, as of the last sync. */
  onChain(key: string): boolean {
    return this.chainKeys.has(key);
  }

  /** Undoes every node from `to` on; returns the smallest round of a removed result (or `to`). */
  private rewind(to: number): number {
    let low = to;
    while (this.log.length > 0 && (this.log.at(-1) as Undo).at >= to) {
      const u = this.log.pop() as Undo;
      if (u.had) u.map.set(u.key, u.prev);
      else u.map.delete(u.key);
    }
    for (let k = this.keys.length - 1; k >= to; k--) {
      this.indexOf.delete(this.keys[k] as string);
      this.unchoose(k);
      const r = this.round[k] as number;
      if (!(this.isStep[k] as boolean) && r >= 0) {
        this.resultsOf.get(r)?.pop();
        if (r < low) low = r;
      }
      if (this.isStep[k] as boolean) this.resultsOf.delete(k);
    }
    this.keys.length = to;
    this.blocks.length = to;
    this.callers.length = to;
    this.isStep.length = to;
    this.round.length = to;
    this.lastStepAt.length = to;
    this.chosen.length = to;
    this.at.length = to;
    return low;
  }

  private set(map: Map<string, unknown>, key: string, value: unknown, at: number): void {
    this.log.push({ at, map, key, had: map.has(key), prev: map.get(key) });
    map.set(key, value);
  }

  private add(it: ContextItem): void {
    const j = this.keys.length;
    const lastStep = j > 0 ? (this.lastStepAt[j - 1] as number) : -1;
    const step = it.role === 'assistant';
    this.keys.push(it.key);
    this.blocks.push(it.blocks);
    this.callers.push(it.caller);
    this.isStep.push(step);
    this.chosen.push(-1);
    if (step) {
      this.round.push(-1);
      this.lastStepAt.push(j);
      this.indexOf.set(it.key, j);
      return;
    }
    const caller = it.caller !== undefined ? this.indexOf.get(it.caller) : undefined;
    const round = caller !== undefined && this.isStep[caller] === true ? caller : lastStep;
    this.indexOf.set(it.key, j);
    this.round.push(round);
    this.lastStepAt.push(lastStep);
    if (round >= 0) {
      const list = this.resultsOf.get(round);
      if (list === undefined) this.resultsOf.set(round, [j]);
      else list.push(j);
    }
    const call = it.blocks.find((b): b is Call => b.type === 'tool_call');
    const result = it.blocks.find((b): b is Result => b.type === 'tool_result');
    if (result === undefined) return;
    const o = resultOp(this.memos, result, call);
    const isFail = o.isFail;
    this.settle(this.pendingByCall, o.callKey, j, isFail);
    for (const p of o.op.paths) this.settle(this.pendingByPath, this.canonical(p, j), j, isFail);
  }

  private canonical(p: string, at: number): string {
    const base = p.slice(p.lastIndexOf('/') + 1);
    const known = (this.pathIds.get(base) as readonly string[] | undefined) ?? [];
    for (const k of known) if (k === p || k.endsWith(`/${p}`) || p.endsWith(`/${k}`)) return k;
    this.set(this.pathIds, base, [...known, p], at);
    return p;
  }

  private settle(pending: Map<string, unknown>, id: string, i: number, isFail: boolean): void {
    const list = pending.get(id) as readonly number[] | undefined;
    if (list === undefined) {
      this.set(pending, id, [i], i);
      return;
    }
    if (list.at(-1) === i) return;
    if (isFail) {
      this.set(pending, id, [...list, i], i);
      return;
    }
    for (const j of list) {
      const k = this.keys[j] as string;
      if (!this.supersededMap.has(k)) this.set(this.supersededMap, k, this.keys[i], i);
    }
    this.set(pending, id, [i], i);
  }

  /** Recomputes the chain choice of every step whose inputs may have changed since node `from`. */
  private rechain(from: number): void {
    let t = from;
    for (let k = from; k < this.keys.length; k++) if (!(this.isStep[k] as boolean) && (this.round[k] as number) >= 0 && (this.round[k] as number) < t) t = this.round[k] as number;
    // The step whose previous round is t's round is the first that can change; start at the step before t.
    let s = t > 0 ? (this.lastStepAt[t - 1] as number) : -1;
    if (s < 0) s = 0;
    let prev = s > 0 ? (this.lastStepAt[s - 1] as number) : -1;
    for (let i = s; i < this.keys.length; i++) {
      if (!(this.isStep[i] as boolean)) continue;
      this.unchoose(i);
      const r = prev >= 0 ? this.choose(prev, i) : -1;
      this.chosen[i] = r;
      if (r >= 0) this.chainKeys.add(this.keys[r] as string);
      prev = i;
    }
  }

  private unchoose(step: number): void {
    const r = this.chosen[step];
    if (r === undefined || r < 0) return;
    this.chainKeys.delete(this.keys[r] as string);
  }

  /** Position of the graph node `key` in the last synced list. */
  positionOf(key: string): number | undefined {
    const j = this.indexOf.get(key);
    return j === undefined ? undefined : this.at[j];
  }

  /** The highest-index result of round `prev` below `i` sharing a distinctive token with step `i`, or -1. */
  private choose(prev: number, i: number): number {
    const own = this.resultsOf.get(i) ?? [];
    let mine: ReadonlySet<string> = stepText(this.memos, this.blocks[i] as readonly Block[]);
    const calls = own.map((r) => (this.blocks[r] as readonly Block[]).find((b): b is Call => b.type === 'tool_call'));
    if (calls.some((c) => c !== undefined)) {
      const set = new Set(mine);
      for (const c of calls) if (c !== undefined) for (const tok of argTokens(this.memos, c)) set.add(tok);
      mine = set;
    }
    const results = this.resultsOf.get(prev) ?? [];
    for (let k = results.length - 1; k >= 0; k--) {
      const r = results[k] as number;
      if (r >= i) continue;
      const res = (this.blocks[r] as readonly Block[]).find((b): b is Result => b.type === 'tool_result');
      if (res === undefined) continue;
      if (reuses(this.memos, res, mine)) return r;
    }
    return -1;
  }
}

/** Whether the result's text holds one of `mine`; memoized per result for token sets of equal content. */
function reuses(memos: ScanMemos, res: Result, mine: ReadonlySet<string>): boolean {
  const hit = memos.reuses.get(res);
  if (hit !== undefined && sameSet(hit.mine, mine)) return hit.reuses;
  const text = res.output.toLowerCase();
  let found = false;
  for (const t of mine) if (containsToken(text, t)) {
    found = true;
    break;
  }
  memos.reuses.set(res, { mine, reuses: found });
  return found;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}
