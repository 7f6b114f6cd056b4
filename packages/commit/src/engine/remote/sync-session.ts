import type { IdGenerator } from '@ctxgit/dag';
import { CommitConflictError } from '../../errors.js';
import type { RepoCore } from '../../store/repo-core.js';
import { fetchSessions } from './fetch-sessions.js';
import { pushSessions } from './push-sessions.js';
import type { PushResult } from './push-sessions.js';
import { RemoteConflictError, SyncExhaustedError } from './remote-errors.js';
import type { Transport } from './transport.js';

/** What a sync did. */
export interface SyncResult extends PushResult {
  /** Rounds of fetch, re-apply and push (1 when nobody raced). */
  readonly attempts: number;
  /** Conflicts met (each a typed `RemoteConflictError` or `CommitConflictError`, each resolved by the next round). */
  readonly conflicts: number;
  /** True when the pending turn was re-applied on top of another backend's and re-committed. */
  readonly reapplied: boolean;
  /** Re-applied nodes that had to take a new id, before → after (see `FetchResult.renamed`); empty when ids are unique per writer. */
  readonly renamed: Readonly<Record<string, string>>;
}

/** How sync waits and gives up. */
export interface SyncPolicy {
  readonly maxAttempts: number;
  /** Milliseconds to wait before round `attempt + 1`. */
  readonly backoff: (attempt: number) => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * Fetch, re-apply, re-commit, push — until the push wins. `recommit` writes the session's commit of its head again
 * after its pending turn was re-applied on top of the remote's nodes.
 */
export async function syncSession(core: RepoCore, t: Transport, session: string, policy: SyncPolicy, clock: () => number, ids: IdGenerator | undefined, recommit: (session: string) => Promise<void>): Promise<SyncResult> {
  let conflicts = 0;
  let reapplied = false;
  const renamed: Record<string, string> = {};
  for (let attempt = 1; ; attempt++) {
    try {
      const fetched = await fetchSessions(core, t, [session], clock, { missingOk: true, ...(ids === undefined ? {} : { ids }) });
      for (const [from, to] of Object.entries(fetched.renamed)) {
        for (const [k, v] of Object.entries(renamed)) if (v === from) renamed[k] = to;
        if (!Object.values(renamed).includes(to)) renamed[from] = to;
      }
      if (fetched.reapplied.includes(session)) {
        reapplied = true;
        await recommit(session);
      }
      const pushed = await pushSessions(core, t, [session]);
      return { ...pushed, attempts: attempt, conflicts, reapplied, renamed };
    } catch (err) {
      if (!(err instanceof RemoteConflictError || err instanceof CommitConflictError)) throw err;
      conflicts++;
      if (attempt >= policy.maxAttempts) throw new SyncExhaustedError(session, attempt);
      await policy.sleep(policy.backoff(attempt));
    }
  }
}
