/** Where the walk over ContextCommits starts, and what the starting ref promises about its commit. */
export interface CommitStart {
  readonly ref: string;
  readonly oid: string;
  /** For a commit-index entry: the commit's head node, and the sessions it may be of (the indexing session, or a session it was forked from). */
  readonly expect?: { readonly sessions: readonly string[]; readonly headNodeId: string };
}
