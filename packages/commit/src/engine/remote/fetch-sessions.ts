import { defaultNodeId } from '@ctxgit/dag';
import type { IdGenerator } from '@ctxgit/dag';
import { readRef } from '../../git/read-ref.js';
import type { RepoCore } from '../../store/repo-core.js';
import { isAncestor } from './merge-base.js';
import { moveRef, setTracking } from './move-ref.js';
import { rebaseDag } from './rebase-dag.js';
import { trackingRef } from './remote.js';
import { RemoteUnknownSessionError } from './remote-errors.js';
import { sessionOfRef, sessionRefs, TRANSFER_PREFIX } from './session-refs.js';
import { sweepWorkRefs } from './sync-work-ref.js';
import type { Transport } from './transport.js';
import { download, listRemoteRefs } from './transport.js';

/** What a fetch did. */
export interface FetchResult {
  /** The sessions read from the remote, sorted. */
  readonly sessions: readonly string[];
  /** Sessions whose pending local turn was re-applied on top of the remote's: their next `commit()` re-commits it. */
  readonly reapplied: readonly string[];
  /**
   * Re-applied nodes that had to take a new id, before → after: the remote held another node under their id (ids made
   * from session and seq alone, the default, collide when two backends appended at the same seq). Empty when every
   * writer's ids are its own (see `SessionOptions.ids`): a re-applied node keeps its id.
   */
  readonly renamed: Readonly<Record<string, string>>;
  /** Local refs that moved, sorted. */
  readonly updated: readonly string[];
}

/** Every session the remote holds (those with a configuration), sorted. */
export function remoteSessions(refs: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  for (const ref of refs.keys()) {
    const s = sessionOfRef(ref);
    if (s !== undefined && ref === `${sessionRefs(s).own}config`) out.add(s);
  }
  return [...out].sort();
}

async function haveFor(core: RepoCore, t: Transport, ref: string): Promise<string | null> {
  const tracked = trackingRef(t.remote, ref);
  if ((await readRef(core.git, tracked)) !== null) return tracked;
  return (await readRef(core.git, ref)) !== null ? ref : null;
}

/** Takes the remote's refs of one session (but its DAG) in: missing ones created, behind ones moved forward, diverged ones set to the remote's (the local ahead kept). */
async function adoptSession(core: RepoCore, t: Transport, session: string, refs: ReadonlyMap<string, string>, reapplied: boolean, updated: string[]): Promise<void> {
  const { own, context, dag } = sessionRefs(session);
  const theirs = [...refs].filter(([ref]) => ref.startsWith(own) && ref !== dag).sort(([a], [b]) => (a === context ? -1 : b === context ? 1 : a < b ? -1 : 1));
  for (const [ref, oid] of theirs) await download(core.git, t, ref, oid, await haveFor(core, t, ref));
  for (const [ref, oid] of theirs) {
    const mine = await readRef(core.git, ref);
    const keep = mine === oid || (mine !== null && !(reapplied && ref === context) && (await isAncestor(core.git, oid, mine)));
    if (!keep) {
      await moveRef(core.git, session, ref, mine, oid);
      updated.push(ref);
    }
    await setTracking(core.git, trackingRef(t.remote, ref), oid);
  }
  if (!reapplied || refs.has(context)) return;
  // the context commit was made on the nodes as they were: drop it (never acknowledged), the next commit makes it again
  const mine = await readRef(core.git, context);
  if (mine !== null) {
    await moveRef(core.git, session, context, mine, null);
    updated.push(context);
  }
}

/**
 * Fetches sessions from a remote: only the refs {@link sessionRefs} names for them, and only the objects this
 * repository lacks. Local DAG writes the remote lacks are kept (re-applied on top, see `rebaseDag`).
 */
export async function fetchSessions(core: RepoCore, t: Transport, wanted: readonly string[] | undefined, clock: () => number, opts: { readonly missingOk?: boolean; readonly ids?: IdGenerator } = {}): Promise<FetchResult> {
  await sweepWorkRefs(core.git);
  const refs = await listRemoteRefs(t, TRANSFER_PREFIX);
  const available = remoteSessions(refs);
  const missing = (wanted ?? []).filter((s) => !available.includes(s));
  if (missing.length > 0 && opts.missingOk !== true) throw new RemoteUnknownSessionError(missing[0] ?? '');
  const sessions = wanted === undefined ? available : [...new Set(wanted)].filter((s) => available.includes(s)).sort();
  const updated: string[] = [];
  const reapplied = new Map<string, ReadonlyMap<string, string>>();
  // each session's DAG is its own ref: the remote's is taken in, or the local writes it lacks are rebuilt on top of it
  for (const session of sessions) {
    const { dag } = sessionRefs(session);
    const theirs = refs.get(dag);
    if (theirs === undefined) continue;
    await download(core.git, t, dag, theirs, await haveFor(core, t, dag));
    const mine = await readRef(core.git, dag);
    if (mine !== theirs && (mine === null || (await isAncestor(core.git, mine, theirs)))) {
      await moveRef(core.git, session, dag, mine, theirs);
      updated.push(dag);
    } else if (mine !== null && mine !== theirs && !(await isAncestor(core.git, theirs, mine))) {
      const rebase = await rebaseDag(core.git, session, dag, mine, theirs, clock, opts.ids ?? defaultNodeId);
      if (rebase.reapplied !== undefined) reapplied.set(session, rebase.reapplied);
      updated.push(dag);
    }
    await setTracking(core.git, trackingRef(t.remote, dag), theirs);
  }
  for (const s of sessions) await adoptSession(core, t, s, refs, reapplied.has(s), updated);
  const renamed: Record<string, string> = {};
  for (const ids of reapplied.values()) for (const [from, to] of ids) if (from !== to) renamed[from] = to;
  return { sessions, reapplied: [...reapplied.keys()].sort(), renamed, updated: updated.sort() };
}
