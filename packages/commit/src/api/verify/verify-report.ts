/**
 * Stable codes of the problems {@link verifyRepo} reports. Errors make `ok` false; `E_VERIFY_STALE_LOCK`,
 * `E_VERIFY_TEMP_FILE`, `E_VERIFY_UNKNOWN_REF` and `E_VERIFY_RECORD_FAILED` are warnings (what a crash or another tool leaves behind, harmless);
 * so is `E_VERIFY_IMPORT_INCOMPLETE`: an import that started and did not finish (what it wrote is sound; its message
 * says what resumes it).
 */
export type VerifyIssueCode =
  | 'E_VERIFY_NOT_CTXGIT'
  | 'E_VERIFY_IO'
  | 'E_VERIFY_REF_UNREADABLE'
  | 'E_VERIFY_REF_MISSING_OBJECT'
  | 'E_VERIFY_REF_WRONG_TYPE'
  | 'E_VERIFY_REF_MISMATCH'
  | 'E_VERIFY_UNKNOWN_REF'
  | 'E_VERIFY_STALE_LOCK'
  | 'E_VERIFY_IMPORT_INCOMPLETE'
  | 'E_VERIFY_TEMP_FILE'
  | 'E_VERIFY_OBJECT_CORRUPT'
  | 'E_VERIFY_CONFIG_INVALID'
  | 'E_VERIFY_NOT_CONTEXT_COMMIT'
  | 'E_VERIFY_ITEM_INVALID'
  | 'E_VERIFY_ITEM_HASH_MISMATCH'
  | 'E_VERIFY_ITEM_PATH_MISMATCH'
  | 'E_VERIFY_ITEM_COUNT_MISMATCH'
  | 'E_VERIFY_ORIGIN_MISSING'
  | 'E_VERIFY_ORIGIN_MISMATCH'
  | 'E_VERIFY_SUMMARY_ORIGINAL_MISSING'
  | 'E_VERIFY_HEAD_NODE_MISSING'
  | 'E_VERIFY_UNEXPLAINED_PARENT'
  | 'E_VERIFY_DAG_NODE_INVALID'
  | 'E_VERIFY_DAG_NODE_NOT_CANONICAL'
  | 'E_VERIFY_DAG_NODE_PATH_MISMATCH'
  | 'E_VERIFY_DAG_EDGE_DANGLING'
  | 'E_VERIFY_DAG_CYCLE'
  | 'E_VERIFY_DAG_INDEX_MISMATCH'
  | 'E_VERIFY_DAG_SESSION_INVALID'
  | 'E_VERIFY_DAG_HISTORY_BROKEN'
  | 'E_VERIFY_DAG_REWRITTEN'
  | 'E_VERIFY_RECORD_FAILED';

/** One problem found by {@link verifyRepo}. */
export interface VerifyIssue {
  readonly code: VerifyIssueCode;
  /** `error` makes the report fail; `warning` is informational. */
  readonly severity: 'error' | 'warning';
  /**
   * Where: a ref (`refs/ctxgit/sessions/<s>/dag`), a file of the git directory (`refs/ctxgit/sessions/<s>/dag.lock`),
   * `<ref>:<tree path>` for something inside a session's DAG, or `<commit oid>:<tree path>` inside a commit.
   */
  readonly path: string;
  /** What is wrong, for people. */
  readonly message: string;
}

/** How much {@link verifyRepo} looked at. */
export interface VerifyCounts {
  /** Refs read (every ref under `refs/`). */
  readonly refs: number;
  /** Commits of the sessions' DAG histories (a fork's history includes its source's). */
  readonly dagCommits: number;
  /** DAG nodes parsed, re-serialized and checked. */
  readonly nodes: number;
  /** Session records of the DAG. */
  readonly sessions: number;
  /** ContextCommits checked (reachable from any session ref, following every parent). */
  readonly contextCommits: number;
  /** Distinct item blobs parsed and re-hashed. */
  readonly items: number;
  /** Summary items whose originals were checked. */
  readonly summaries: number;
  /** Distinct origin blobs compared with the DAG. */
  readonly origins: number;
  /** Distinct objects read and re-hashed by the walk of every ctxgit ref's whole history (0 with `quick`). */
  readonly objects: number;
}

/** The result of {@link verifyRepo}: problems as data, never thrown. */
export interface VerifyReport {
  /** True when no issue has severity `error`. */
  readonly ok: boolean;
  readonly issues: readonly VerifyIssue[];
  readonly counts: VerifyCounts;
  /**
   * The verification token: a stored commit whose parents are the session DAG commits that were verified (null
   * for a repository without sessions, or when issues were found). Pass it back as `previous` (or let `record` store
   * it in `refs/ctxgit/verified`) to check that every session's DAG only grew since.
   */
  readonly token: string | null;
  /** The token this run compared against, or null when none was given or recorded. */
  readonly previous: string | null;
  /** True when `record` was set, the report is ok, and `refs/ctxgit/verified` now holds {@link VerifyReport.token}. */
  readonly recorded: boolean;
}

/** Options of {@link verifyRepo}. */
export interface VerifyOptions {
  /**
   * A token of an earlier run: every session's DAG must have only grown since (each DAG commit the token names is
   * in its session's history, and every node and record version it held is still there). `null` skips the check.
   * @defaultValue the token recorded in `refs/ctxgit/verified`, if any
   */
  readonly previous?: string | null;
  /** When the report is ok, point `refs/ctxgit/verified` at the token (compare-and-swap). @defaultValue false */
  readonly record?: boolean;
  /**
   * Skip the walk that reads every object reachable from every ctxgit ref through all of its history; the DAG, the
   * refs and the ContextCommits are still checked. @defaultValue false
   */
  readonly quick?: boolean;
}
