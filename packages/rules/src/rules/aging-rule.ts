import type { ContextItem } from '../item.js';
import { factsOf } from '../list-facts.js';
import { changesSince, editedFrom, type Changes } from '../list-lineage.js';
import type { ResolvedRulesOptions, RulesOptions } from '../options.js';
import { protectionOf, type Protection } from '../protection.js';
import { resolveRulesOptions } from '../resolve-options.js';
import type { Rule } from '../rule.js';
import { tailStart } from '../tail-start.js';
import { agedBlocks } from './aged-blocks.js';
import { lowerBound } from '../lower-bound.js';
import { recordEdit } from '../list-lineage.js';

/** What one run of the rule decided, for the next run on a list derived from its result. */
interface Examined {
  /** Tail start of that run. */
  readonly tail: number;
  readonly scan: object;
  readonly stamp: number;
  /** The latest user turn then: a new one may release chain results anywhere. */
  readonly latestUser: string | undefined;
}

const MAX_WALK = 16;

/** Position of the last assistant item, or -1. */
function lastAssistant(items: readonly ContextItem[]): number {
  for (let i = items.length - 1; i >= 0; i--) if ((items[i] as ContextItem).role === 'assistant') return i;
  return -1;
}

/** A result of a short-lived tool (navigation) that no pin, anchor or protected name keeps. */
function isShortLived(it: ContextItem, o: ResolvedRulesOptions): boolean {
  const block = it.blocks.find((b) => b.type === 'tool_call' || b.type === 'tool_result');
  const name = block?.type === 'tool_call' || block?.type === 'tool_result' ? block.name.toLowerCase() : undefined;
  return name !== undefined && o.shortLivedTools.has(name) && !o.protectedTools.has(name) && it.pinned !== true && it.isAnchor !== true;
}

/** The nearest list (from `items` back through recorded edits) this rule examined, and what changed since. */
function priorOf(items: readonly ContextItem[], examined: WeakMap<readonly ContextItem[], Examined>): { seen: Examined; changes: Changes } | undefined {
  let cur: readonly ContextItem[] | undefined = items;
  for (let steps = 0; cur !== undefined && steps <= MAX_WALK; steps++) {
    const seen = examined.get(cur);
    if (seen !== undefined) {
      const changes = changesSince(items, cur, MAX_WALK);
      return changes === undefined ? undefined : { seen, changes };
    }
    cur = editedFrom(cur);
  }
  return undefined;
}

/**
 * Candidates to look at: all of them, or, after an earlier run on a list this one derives from, those at changed
 * or new positions, those at or after either run's tail start, and those that left the critical chain since (an
 * unchanged candidate before both tails was kept then for a reason that holds as long as it stays on the chain).
 */
function toVisit(candidates: readonly number[], tail: number, prior: { seen: Examined; changes: Changes } | undefined, prot: Protection): readonly number[] {
  const dropped = prior === undefined ? undefined : prot.droppedSince(prior.seen.scan, prior.seen.stamp);
  if (prior === undefined || dropped === undefined || prior.seen.latestUser !== prot.latestUser) return candidates;
  const { seen, changes } = prior;
  const from = Math.min(seen.tail, tail, changes.appendedFrom);
  const at = new Set<number>(candidates.slice(lowerBound(candidates, from)));
  for (const i of changes.changed) if (i < from) at.add(i);
  for (const key of dropped) {
    const i = prot.positionOf(key);
    if (i !== undefined) at.add(i);
  }
  return [...at].sort((a, b) => a - b);
}

/**
 * Tool aging (`aging@2`): a `full` tool item outside the tail window (the last `tailTurns` = 3 assistant
 * turns) becomes `aged` with reason `tail_window`: its result turns into the one-line stub
 * `[tool <name>] output: <first stubChars=80 chars>… (<N> chars)` (kept as is when not shorter) and its call keeps the arguments cut to
 * `callArgsChars` (200). A result superseded by a later identical call or a later operation on the same
 * file ages even inside the tail (reason `superseded`, when `ageSuperseded`). A result of a short-lived tool
 * (`shortLivedTools`, by default the catalogue's `open_tools`) ages as soon as an assistant item follows it (reason
 * `short_lived`), whatever the tail and the critical chain say. Protected tools, pinned,
 * anchor, locked items and the tool results of the critical chain never age. Runs only when the
 * cache epoch is open.
 *
 * @param options - See {@link RulesOptions}.
 * @returns The rule.
 * @example
 * ```ts
 * const rules = [agingRule({ tailTurns: 2, protectedTools: ['read_plan'] })];
 * ```
 */
export function agingRule(options: RulesOptions = {}): Rule {
  const o = resolveRulesOptions(options);
  // Lists this rule returned, with what it decided: a later run visits only what may decide otherwise.
  const examined = new WeakMap<readonly ContextItem[], Examined>();
  return {
    name: 'aging',
    version: 2,
    apply(items, ctx) {
      const candidates = factsOf(items).fullTools;
      if (candidates.length === 0 || !ctx.epochOpen(items)) return items;
      const tail = tailStart(items, o.tailTurns);
      const prot = protectionOf(items, o, ctx);
      const prior = priorOf(items, examined);
      const visit = toVisit(candidates, tail, prior, prot);
      let out: ContextItem[] | undefined;
      const changed: number[] = [];
      const lastA = lastAssistant(items);
      for (const i of visit) {
        const it = items[i] as ContextItem;
        if (it.role !== 'tool' || it.state !== 'full' || it.locked) continue;
        const shortLived = i < lastA && isShortLived(it, o);
        if (!shortLived && prot.protects(it)) continue;
        const reason = shortLived ? 'short_lived' : i < tail ? 'tail_window' : o.ageSuperseded && prot.superseded(it.key) ? 'superseded' : undefined;
        if (reason === undefined) continue;
        out ??= items.slice();
        out[i] = { ...it, state: 'aged', reason, blocks: agedBlocks(it.blocks, it.outputChars, o) };
        changed.push(i);
      }
      const result = out ?? items;
      if (out !== undefined) recordEdit(out, items, changed);
      const { scan, stamp } = prot.chainStamp();
      examined.set(result, { tail, scan, stamp, latestUser: prot.latestUser });
      return result;
    },
  };
}
