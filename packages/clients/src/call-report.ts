import type { CommitRequest, CommitSummary, HistoryEntry, Session } from '@ctxgit/commit';
import type { ContextCommit } from '@ctxgit/commit';

/** What ctxgit did for one wrapped call; set as `ctxgit` on the response. */
export interface CtxgitCallReport {
  /** The session the call went through. */
  readonly session: string;
  /** The ContextCommit whose render was sent (git commit oid). */
  readonly commit: string;
  /** Messages of the call the session already held. */
  readonly matched: number;
  /** Messages of the call appended to the session. */
  readonly appended: number;
  /** Tokens of the commit, as ctxgit counts them. */
  readonly totalTokens: number;
  /** What the rules did on this turn (added, aged, cleared, folded, first changed index). */
  readonly summary: CommitSummary;
  /** Input tokens the provider reported (uncached, cache reads, cache writes), recorded on the session. */
  readonly usage: { readonly inputTokens: number; readonly cacheReadTokens: number; readonly cacheWriteTokens: number };
}

/** Appends what is new in the call's history and returns the commit to send, built for `request` (the window holds the rendered body). @internal */
export async function beginTurn(session: Session, history: readonly HistoryEntry[], request: CommitRequest): Promise<{ commit: ContextCommit; matched: number; appended: number }> {
  // the new messages and the commit to send land in one write
  const { matched, appended, commit } = await session.appendNew(history, { commit: { request } });
  return { commit, matched, appended: appended.length };
}

/** Records the provider's usage for the commit and writes the report. @internal */
export async function endTurn(session: Session, turn: { commit: ContextCommit; matched: number; appended: number }, usage: CtxgitCallReport['usage']): Promise<CtxgitCallReport> {
  await session.recordUsage({ head: turn.commit.id, ...usage });
  return { session: session.name, commit: turn.commit.id, matched: turn.matched, appended: turn.appended, totalTokens: turn.commit.totalTokens, summary: turn.commit.summary, usage };
}
