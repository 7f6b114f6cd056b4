import type { ContextItem } from '../item.js';
import { changesSince, editedFrom, type Changes } from '../list-lineage.js';
import { lowerBound } from '../lower-bound.js';
import type { Protection } from '../protection.js';
import type { RulesCache } from '../rules-cache.js';

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

/**
 * What a rule that looks at candidate positions decided on the lists it returned, so that a later run on a list
 * derived from one of them visits only the candidates that may decide otherwise. Owned by the rule (made by its
 * factory); lists are remembered weakly.
 */
export class Visits {
  readonly #examined = new WeakMap<readonly ContextItem[], Examined>();

  /**
   * Candidates to look at: all of them, or, after an earlier run on a list this one derives from, those at changed
   * or new positions, those at or after either run's tail start, and those that left the critical chain since (an
   * unchanged candidate before both tails was kept then for a reason that holds as long as it stays on the chain).
   */
  toVisit(cache: RulesCache, items: readonly ContextItem[], candidates: readonly number[], tail: number, prot: Protection): readonly number[] {
    return toVisit(candidates, tail, priorOf(cache, items, this.#examined), prot);
  }

  /** Remembers what a run with tail start `tail` and protection `prot` decided: its result `result`, returned. */
  remember(result: readonly ContextItem[], tail: number, prot: Protection): readonly ContextItem[] {
    const { scan, stamp } = prot.chainStamp();
    this.#examined.set(result, { tail, scan, stamp, latestUser: prot.latestUser });
    return result;
  }
}

/** The nearest list (from `items` back through recorded edits) this rule examined, and what changed since. */
function priorOf(cache: RulesCache, items: readonly ContextItem[], examined: WeakMap<readonly ContextItem[], Examined>): { seen: Examined; changes: Changes } | undefined {
  let cur: readonly ContextItem[] | undefined = items;
  for (let steps = 0; cur !== undefined && steps <= MAX_WALK; steps++) {
    const seen = examined.get(cur);
    if (seen !== undefined) {
      const changes = changesSince(cache, items, cur, MAX_WALK);
      return changes === undefined ? undefined : { seen, changes };
    }
    cur = editedFrom(cache, cur);
  }
  return undefined;
}

/** {@link Visits.toVisit} once the prior run is known. */
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

