import type { CommitSummary } from '../store/context-commit.js';

/** One line of {@link Session.log}: a ContextCommit without its items. */
export interface LogEntry {
  /** The git commit oid. */
  readonly id: string;
  readonly parentIds: readonly string[];
  /** The session that wrote the commit (a fork's log continues into its origin's commits). */
  readonly session: string;
  /** 1 for a session's first commit, then the parent's turn + 1. */
  readonly turn: number;
  readonly headNodeId: string;
  readonly rulesVersion: string;
  readonly totalTokens: number;
  readonly window: number;
  readonly summary: CommitSummary;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** The git commit message. */
  readonly message: string;
}
