import { listRefs } from '../../git/list-refs.js';
import { readRef } from '../../git/read-ref.js';
import type { RepoCore } from '../../store/repo-core.js';
import { isAncestor } from './merge-base.js';
import { setTracking } from './move-ref.js';
import { trackingRef } from './remote.js';
import { RemoteConflictError } from './remote-errors.js';
import { sessionRefs, TRANSFER_PREFIX } from './session-refs.js';
import type { Transport } from './transport.js';
import { listRemoteRefs, upload } from './transport.js';

/** What a push did. */
export interface PushResult {
  /** The sessions pushed, sorted. */
  readonly sessions: readonly string[];
  /** Refs the remote now holds at this repository's value, in push order. */
  readonly pushed: readonly string[];
  /** Refs left as they are on the remote because it holds a newer commit there (a ContextCommit another backend made on the same nodes). */
  readonly skipped: readonly string[];
}

/**
 * Pushes sessions: each session's DAG ref first (its compare-and-swap on the server decides who wins a race; it
 * carries the commit index), then the session's config and other refs, last its context ref. Nothing is forced.
 *
 * @throws `RemoteConflictError` when the remote's DAG holds writes this repository lacks (sync first) or moved
 * during the push
 */
export async function pushSessions(core: RepoCore, t: Transport, sessions: readonly string[]): Promise<PushResult> {
  const refs = await listRemoteRefs(t, TRANSFER_PREFIX);
  const pushed: string[] = [];
  const skipped: string[] = [];
  const send = async (ref: string, mine: string): Promise<void> => {
    const theirs = refs.get(ref) ?? null;
    if (theirs !== mine) {
      await upload(core.git, t, ref, theirs);
      pushed.push(ref);
    }
    await setTracking(core.git, trackingRef(t.remote, ref), mine);
  };
  for (const dag of new Set(sessions.map((s) => sessionRefs(s).dag))) {
    const mine = await readRef(core.git, dag);
    const theirs = refs.get(dag);
    if (mine === null) continue;
    if (theirs !== undefined && theirs !== mine && !(await isAncestor(core.git, theirs, mine).catch(() => false))) {
      throw new RemoteConflictError(dag, theirs, 'the remote holds DAG writes this repository lacks');
    }
    await send(dag, mine);
  }
  for (const s of sessions) {
    const { own, context, dag } = sessionRefs(s);
    const rank = (ref: string): number => (ref === context ? 2 : ref === `${own}config` ? 0 : 1);
    const mine = [...(await listRefs(core.git, own))].filter((ref) => ref !== dag).sort((a, b) => rank(a) - rank(b));
    for (const ref of mine) {
      const oid = await readRef(core.git, ref);
      const theirs = refs.get(ref);
      if (oid === null) continue;
      if (theirs !== undefined && theirs !== oid && !(await isAncestor(core.git, theirs, oid).catch(() => false))) {
        skipped.push(ref);
        continue;
      }
      await send(ref, oid);
    }
  }
  return { sessions: [...sessions].sort(), pushed, skipped };
}
