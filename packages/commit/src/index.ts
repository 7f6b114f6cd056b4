export type { CommitSummary, ContextCommit } from './context-commit.js';
export {
  CommitConflictError,
  CommitError,
  EmptySessionError,
  FoldToolError,
  HistoryDivergedError,
  InvalidMergeError,
  InvalidOptionError,
  NotCtxgitRepoError,
  PinCapError,
  PinStateError,
  PinTargetError,
  SelfMergeError,
  SessionNameTakenError,
  UnknownCommitError,
  UnknownItemError,
  UnknownModelError,
  UnknownSessionError,
  VerificationError,
} from './errors.js';
export type { CommitErrorData, FoldToolErrorCode } from './errors.js';
export { FOLD_TOOL_NAMES, foldTools, foldToolsFor } from './fold-tools/fold-tool-definitions.js';
export type {
  AnthropicFoldTool,
  FoldToolDefinition,
  FoldToolName,
  FoldToolOptions,
  OpenAIChatFoldTool,
  OpenAIResponsesFoldTool,
} from './fold-tools/fold-tool-definitions.js';
export type { FoldToolCall, FoldToolResult } from './fold-tools/run-fold-tool.js';
export { cloneRepo, openRepo } from './open-repo.js';
export { adoptSessionPack, holdsSessionPack, packSessions } from './store/session-pack.js';
export type { AdoptResult, PackSessionsOptions, SessionPack } from './store/session-pack.js';
export type { CloneRepoOptions, OpenRepoOptions } from './open-repo.js';
export type { AuthCallback, Remote, RemoteCredentials } from './remote/remote.js';
export type { TransferOptions, SyncOptions } from './remote/transfer-options.js';
export type { FetchResult } from './remote/fetch-sessions.js';
export type { PushResult } from './remote/push-sessions.js';
export type { SyncResult } from './remote/sync-session.js';
export {
  InvalidRemoteError,
  RemoteAuthError,
  RemoteConflictError,
  RemoteError,
  RemoteRejectedError,
  RemoteUnknownSessionError,
  RemoteUnreachableError,
  SyncExhaustedError,
} from './remote/remote-errors.js';
export { Repo } from './repo.js';
export type { GcResult } from './repo.js';
export type { CreateSessionOptions, SessionOptions } from './session-options.js';
export type { MergeOptions } from './merge-sessions.js';
export { Session } from './session.js';
export type { CommitRequest } from './session-request.js';
export type { AppendedTurn, AttachRequest, CheckoutOptions, CommitOptions, ExpandOptions, FoldToolCallOptions, ForkSessionOptions, LogOptions, PinResult, ResolveToolCallOptions, SessionUsage, ToolCall } from './session.js';
export type { SessionSummarizeInput, SessionSummarizer } from './summarizer/session-summarizer.js';
export type { CommitTools } from './tools/commit-tools.js';
export type { LogEntry } from './log-entry.js';
export type { AppendNewResult, HistoryEntry } from './append-new.js';
export type { ExpandedOriginal, ExpandedSummary } from './expanded-summary.js';
export { refLayout } from './refs.js';
export type { RefLayout } from './refs.js';
export { canonicalJson } from './canonical-json.js';
export type { CanonicalJsonOptions } from './canonical-json.js';
export { diffCommits } from './diff-commits.js';
export type { CommitDiff, ItemChange } from './diff-commits.js';
export { verifyRepo } from './verify/verify-repo.js';
export { clearImportMarker, incompleteImports, markImport } from './import-marker.js';
export type { IncompleteImport } from './import-marker.js';
export type { VerifyCounts, VerifyIssue, VerifyIssueCode, VerifyOptions, VerifyReport } from './verify/verify-report.js';
export { GitNodeStore } from './store/git-node-store.js';
export type { CommitIndexEntry, GitNodeStoreOptions } from './store/git-node-store.js';
export { SessionNodeView } from './store/session-node-view.js';
export type { DagSnapshot, DagState, PerSessionReads } from './store/session-node-view.js';
export { openGit } from './git/open-git.js';
export type { LockHolder } from './git/errors.js';
export type { OpenGitCommonOptions, OpenGitDirOptions, OpenGitMemoryOptions, OpenGitOptions } from './git/open-git.js';
export type { FsFileHandleLike, FsLike, FsPromisesLike, FsStatsLike } from './git/fs-like.js';
export type { GitContext } from './git/git-context.js';
export { hashObject } from './git/object-hash.js';
export type { GitObjectType } from './git/object-hash.js';
export { writeBlob } from './git/write-blob.js';
export { readBlob } from './git/read-blob.js';
export { writeTree } from './git/write-tree.js';
export { readTree } from './git/read-tree.js';
export type { TreeEntry } from './git/tree-entry.js';
export { writeCommit } from './git/write-commit.js';
export { readCommitObject } from './git/read-commit-object.js';
export type { CommitObject, GitIdentity, ReadCommitResult } from './git/commit-object.js';
export { hasObject } from './git/has-object.js';
export { updateTree } from './git/update-tree.js';
export type { TreeEdit } from './git/tree-edit.js';
export { readPath } from './git/read-path.js';
export { listTree } from './git/list-tree.js';
export { readRef } from './git/read-ref.js';
export { compareAndSwapRef } from './git/compare-and-swap-ref.js';
export { listRefs } from './git/list-refs.js';
export { recoverStaleLocks } from './git/recover-stale-locks.js';
export type { RecoverStaleLocksOptions } from './git/recover-stale-locks.js';
export { removeTempObjects } from './git/remove-temp-objects.js';
export type { RemoveTempObjectsOptions } from './git/remove-temp-objects.js';
export type { LockIdentity } from './git/lock-identity.js';
export { validateRefComponent } from './git/validate-ref-name.js';
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
} from './git/errors.js';
export type { NameKind, RefConflictReason } from './git/errors.js';
