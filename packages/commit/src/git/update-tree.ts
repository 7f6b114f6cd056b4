import type { GitContext } from './git-context.js';
import { planTreeEdits, storeTrees } from './internal/plan-tree-edits.js';
import type { TreeEdit } from './tree-edit.js';

/**
 * Copy-on-write edit of nested trees: writes only the trees on the edited paths and returns the new root.
 * Trees left empty are dropped from their parent; an empty root is the empty tree.
 *
 * @param ctx - the repository
 * @param root - the tree to edit, or null to start from nothing
 * @param edits - puts and deletes; no path may be edited twice or lie below another edit
 * @returns the new root tree's oid (equal to `root` when nothing changed)
 * @throws {@link ObjectNotFoundError} when an edit names a missing object, {@link GitArgumentError} for conflicting
 * edits or a path through a blob, {@link InvalidNameError} for a bad segment
 * @example
 * ```ts
 * const blob = await writeBlob(ctx, '{}');
 * const next = await updateTree(ctx, tree, [{ path: ['nodes', 'ab', 'n1.json'], oid: blob, type: 'blob' }]);
 * ```
 */
export async function updateTree(ctx: GitContext, root: string | null, edits: readonly TreeEdit[]): Promise<string> {
  const plan = await planTreeEdits(ctx, root, edits, new Set());
  await storeTrees(ctx, plan.trees);
  return plan.root;
}
