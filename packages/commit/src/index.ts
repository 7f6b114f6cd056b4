export type { CommitSummary, ContextCommit } from './store/context-commit.js';
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
export { FOLD_TOOL_NAMES, foldTools, foldToolsFor } from './engine/fold-tools/fold-tool-definitions.js';
export type {
  AnthropicFoldTool,
  FoldToolDefinition,
  FoldToolName,
  FoldToolOptions,
  OpenAIChatFoldTool,
  OpenAIResponsesFoldTool,
} from './engine/fold-tools/fold-tool-definitions.js';
export type { FoldToolCall, FoldToolResult } from './engine/fold-tools/run-fold-tool.js';
export { cloneRepo, openRepo } from './api/open-repo.js';
export { adoptSessionPack, holdsSessionPack, packSessions } from './api/session-pack.js';
export type { AdoptResult, PackSessionsOptions, SessionPack } from './api/session-pack.js';
export type { CloneRepoOptions, OpenRepoOptions } from './api/open-repo.js';
export type { AuthCallback, Remote, RemoteCredentials } from './engine/remote/remote.js';
export type { TransferOptions, SyncOptions } from './engine/remote/transfer-options.js';
export type { FetchResult } from './engine/remote/fetch-sessions.js';
export type { PushResult } from './engine/remote/push-sessions.js';
export type { SyncResult } from './engine/remote/sync-session.js';
export {
  InvalidRemoteError,
  RemoteAuthError,
  RemoteConflictError,
  RemoteError,
  RemoteRejectedError,
  RemoteUnknownSessionError,
  RemoteUnreachableError,
  SyncExhaustedError,
} from './engine/remote/remote-errors.js';
export { Repo } from './api/repo.js';
export type { GcResult } from './api/repo.js';
export type { CreateSessionOptions, SessionOptions } from './engine/session-options.js';
export type { MergeOptions } from './engine/merge-sessions.js';
export { Session } from './api/session.js';
export type { CommitRequest } from './engine/session-request.js';
export type { AppendedTurn, AppendNewOptions, AttachRequest, CheckoutOptions, CommitOptions, ExpandOptions, FoldToolCallOptions, ForkSessionOptions, LogOptions, PinResult, ResolveToolCallOptions, SessionUsage, ToolCall } from './api/session.js';
export type { SessionSummarizeInput, SessionSummarizer } from './engine/summarizer/session-summarizer.js';
export type { CommitTools } from './store/tools/commit-tools.js';
export type { LogEntry } from './api/log-entry.js';
export type { AppendNewResult, HistoryEntry } from './engine/append-new.js';
export type { ExpandedOriginal, ExpandedSummary } from './engine/expanded-summary.js';
export { refLayout } from './store/refs.js';
export type { RefLayout } from './store/refs.js';
export { diffCommits } from './engine/diff-commits.js';
export type { CommitDiff, ItemChange } from './engine/diff-commits.js';
export { verifyRepo } from './api/verify/verify-repo.js';
export { clearImportMarker, incompleteImports, markImport } from './api/import-marker.js';
export type { IncompleteImport } from './api/import-marker.js';
export type { VerifyCounts, VerifyIssue, VerifyIssueCode, VerifyOptions, VerifyReport } from './api/verify/verify-report.js';
export { GitNodeStore } from './store/git-node-store.js';
export type { CommitIndexEntry, GitNodeStoreOptions } from './store/git-node-store.js';
export { SessionNodeView } from './store/session-node-view.js';
export type { DagSnapshot, DagState, PerSessionReads } from './store/session-node-view.js';
export type { LockHolder } from './git/errors.js';
export type { FsFileHandleLike, FsLike, FsPromisesLike, FsStatsLike } from './git/fs-like.js';
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
