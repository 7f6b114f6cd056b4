import type { ReadCommitResult } from './commit-object.js';
import type { GitContext } from './git-context.js';
import { decodeCommit } from './internal/commit-codec.js';
import { readTyped } from './internal/object-io.js';
import { assertOid } from './internal/oid.js';

/**
 * Reads a git commit object (not a ContextCommit: see the engine's `readCommit`).
 *
 * @param ctx - the repository
 * @param oid - the commit's id
 * @returns its tree, parents, message, author and committer
 * @throws {@link ObjectNotFoundError}, {@link ObjectTypeError} when `oid` is not a commit
 * @example
 * ```ts
 * const { tree, parents, message } = await readCommitObject(ctx, oid);
 * ```
 */
export async function readCommitObject(ctx: GitContext, oid: string): Promise<ReadCommitResult> {
  assertOid('oid', oid);
  return decodeCommit(oid, await readTyped(ctx, oid, 'commit'));
}
