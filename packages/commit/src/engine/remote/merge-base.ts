import type { GitContext } from '../../git/git-context.js';
import { readCommitObject } from '../../git/read-commit-object.js';

/**
 * The nearest commit both first-parent chains share, or null when they share none. The two chains are walked in
 * turn, so the cost is the distance from each tip to that commit (not the whole history). ctxgit's DAG commits have
 * one parent and a session's ContextCommits are its first-parent chain.
 */
export async function mergeBase(ctx: GitContext, a: string, b: string): Promise<string | null> {
  if (a === b) return a;
  const seenA = new Set([a]);
  const seenB = new Set([b]);
  let tipA: string | undefined = a;
  let tipB: string | undefined = b;
  while (tipA !== undefined || tipB !== undefined) {
    if (tipA !== undefined) {
      tipA = (await readCommitObject(ctx, tipA)).parents[0];
      if (tipA !== undefined) {
        if (seenB.has(tipA)) return tipA;
        seenA.add(tipA);
      }
    }
    if (tipB !== undefined) {
      tipB = (await readCommitObject(ctx, tipB)).parents[0];
      if (tipB !== undefined) {
        if (seenA.has(tipB)) return tipB;
        seenB.add(tipB);
      }
    }
  }
  return null;
}

/** True when `ancestor` is `descendant` or lies on its first-parent chain. */
export async function isAncestor(ctx: GitContext, ancestor: string, descendant: string): Promise<boolean> {
  return (await mergeBase(ctx, ancestor, descendant)) === ancestor;
}
