import type { CommitObject } from './commit-object.js';
import { ObjectNotFoundError } from './errors.js';
import type { GitContext } from './git-context.js';
import { checkCommit, encodeCommit } from './internal/commit-codec.js';
import { hasObjectInternal, writeObject } from './internal/object-io.js';

/**
 * Stores a commit after checking that its tree and parents exist; returns its oid. Same input, same oid.
 *
 * @param ctx - the repository
 * @param commit - tree, parents, message (stored as given) and author; the committer defaults to the author
 * @returns the commit's oid
 * @throws {@link GitArgumentError} for a malformed field, {@link ObjectNotFoundError} for a missing tree or parent
 * @example
 * ```ts
 * const oid = await writeCommit(ctx, {
 *   tree, parents: [], message: 'first\n',
 *   author: { name: 'ctxgit', email: 'ctxgit@localhost', timestamp: 1_700_000_000, timezoneOffset: 0 },
 * });
 * ```
 */
export async function writeCommit(ctx: GitContext, commit: CommitObject): Promise<string> {
  checkCommit(commit);
  for (const oid of [commit.tree, ...commit.parents]) {
    if (!(await hasObjectInternal(ctx, oid))) throw new ObjectNotFoundError(oid);
  }
  return writeObject(ctx, 'commit', encodeCommit(commit));
}
