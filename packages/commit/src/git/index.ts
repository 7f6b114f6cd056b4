/**
 * `@ctxgit/commit/git`: the git plumbing under ctxgit's storage, for tools that read or write a ctxgit repository
 * at the object and ref level (the CLI's `verify` and commit-id lookups, the viewer, the LangGraph checkpointer,
 * the benchmarks). Objects, trees, commits and refs with lock-file compare-and-swap; nothing here knows what a
 * session is. The errors it throws (`GitError` and its subclasses, codes `E_GIT_*`) are exported here and from
 * `@ctxgit/commit`, which throws them too.
 *
 * @example
 * ```ts
 * import { openRepo } from '@ctxgit/commit';
 * import { listRefs, readCommitObject, readRef } from '@ctxgit/commit/git';
 *
 * const repo = await openRepo({ memory: true });
 * const heads = await Promise.all((await listRefs(repo.git, 'refs/ctxgit/')).map((ref) => readRef(repo.git, ref)));
 * ```
 *
 * @module
 */
export { openGit } from './open-git.js';
export { memoryFs } from './memory-fs.js';
export type { OpenGitCommonOptions, OpenGitDirOptions, OpenGitMemoryOptions, OpenGitOptions } from './open-git.js';
export type { GitContext } from './git-context.js';
export type { LockIdentity } from './lock-identity.js';
export { hashObject } from './object-hash.js';
export type { GitObjectType } from './object-hash.js';
export { writeBlob } from './write-blob.js';
export { inBatch } from './in-batch.js';
export type { BatchOptions } from './in-batch.js';
export { readBlob } from './read-blob.js';
export type { TreeEntry } from './tree-entry.js';
export { writeCommit } from './write-commit.js';
export { readCommitObject } from './read-commit-object.js';
export type { CommitObject, GitIdentity, ReadCommitResult } from './commit-object.js';
export { updateTree } from './update-tree.js';
export type { TreeEdit } from './tree-edit.js';
export { readPath } from './read-path.js';
export { listTree } from './list-tree.js';
export { readRef } from './read-ref.js';
export { compareAndSwapRef } from './compare-and-swap-ref.js';
export { listRefs } from './list-refs.js';
export { recoverStaleLocks } from './recover-stale-locks.js';
export type { RecoverStaleLocksOptions } from './recover-stale-locks.js';
export { removeTempObjects } from './remove-temp-objects.js';
export type { RemoveTempObjectsOptions } from './remove-temp-objects.js';
export { validateRefComponent } from './validate-ref-name.js';
export {
  CorruptObjectError,
  GitArgumentError,
  GitError,
  GitIoError,
  InvalidNameError,
  NotARepositoryError,
  ObjectNotFoundError,
  ObjectTypeError,
  RefConflictError,
} from './errors.js';
export type { LockHolder, NameKind, RefConflictReason } from './errors.js';
