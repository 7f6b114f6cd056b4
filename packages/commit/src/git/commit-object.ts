/**
 * The author or committer of a git commit.
 *
 * @remarks
 * `timestamp` is in seconds since the epoch. `timezoneOffset` follows isomorphic-git and `Date#getTimezoneOffset`:
 * minutes *behind* UTC, so `-60` is written as `+0100` and `0` as `+0000`.
 */
export interface GitIdentity {
  readonly name: string;
  readonly email: string;
  /** Seconds since the epoch. */
  readonly timestamp: number;
  /** Minutes behind UTC (`-60` for UTC+1). */
  readonly timezoneOffset: number;
}

/** A commit to write: the committer defaults to the author. */
export interface CommitObject {
  readonly tree: string;
  /** Zero parents for a root commit, more than one for a merge. */
  readonly parents: readonly string[];
  /** Stored byte for byte (no newline is added). */
  readonly message: string;
  readonly author: GitIdentity;
  /** @defaultValue the author */
  readonly committer?: GitIdentity;
}

/** A commit as read back from the repository. */
export interface ReadCommitResult {
  readonly oid: string;
  readonly tree: string;
  readonly parents: readonly string[];
  readonly message: string;
  readonly author: GitIdentity;
  readonly committer: GitIdentity;
}
