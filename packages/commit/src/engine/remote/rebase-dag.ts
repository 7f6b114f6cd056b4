import type { IdGenerator, Node, SessionRecord } from '@ctxgit/dag';
import { canonicalJson } from '@ctxgit/dag';
import type { GitContext } from '../../git/git-context.js';
import { readBlob } from '../../git/read-blob.js';
import { readCommitObject } from '../../git/read-commit-object.js';
import { readPath } from '../../git/read-path.js';
import { readRef } from '../../git/read-ref.js';
import { GitNodeStore } from '../../store/git-node-store.js';
import type { CommitIndexEntry } from '../../store/git-node-store.js';
import { dagRef as sessionDagRef } from '../../store/refs.js';
import { nodePath, RECORD_PATH } from '../../store/internal/dag-layout.js';
import { mergeBase } from './merge-base.js';
import { moveRef } from './move-ref.js';
import { RemoteRejectedError } from './remote-errors.js';
import { dropWorkRef, newWorkRef } from './sync-work-ref.js';

const decoder = new TextDecoder();

async function jsonAt<T>(ctx: GitContext, commit: string, path: readonly string[]): Promise<T | undefined> {
  const { tree } = await readCommitObject(ctx, commit);
  const oid = await readPath(ctx, tree, path);
  return oid === undefined ? undefined : (JSON.parse(decoder.decode(await readBlob(ctx, oid))) as T);
}

/** The session's DAG writes that the remote has not seen, oldest first: their nodes and commit index entries. */
interface PendingWrites {
  readonly nodeIds: string[];
  /** node → ContextCommit, the last one written per node. */
  readonly index: Map<string, string>;
}

/** The writes of the session's DAG commits after `base` up to `tip` (from their `Node:` and `Context-Commit:` trailers). */
async function pendingWrites(ctx: GitContext, session: string, tip: string, base: string | null): Promise<PendingWrites> {
  const commits: string[] = [];
  for (let at: string | undefined = tip; at !== undefined && at !== base; at = (await readCommitObject(ctx, at)).parents[0]) {
    const { message } = await readCommitObject(ctx, at);
    // below the session's first DAG commit: the DAG of the session it was forked from, or a ContextCommit
    if (!message.split('\n').includes(`Session: ${session}`)) break;
    commits.push(at);
  }
  const out: PendingWrites = { nodeIds: [], index: new Map() };
  for (const oid of commits.reverse()) {
    const { message } = await readCommitObject(ctx, oid);
    for (const m of message.matchAll(/^Node: (.*)$/gmu)) out.nodeIds.push(m[1] ?? '');
    for (const m of message.matchAll(/^Context-Commit: ([0-9a-f]{40}) (.*)$/gmu)) out.index.set(m[2] ?? '', m[1] ?? '');
  }
  return out;
}

/** What {@link rebaseDag} did. */
export interface DagRebase {
  /** The session's DAG ref's new value. */
  readonly tip: string;
  /** When the session's pending nodes were re-appended after the remote's head: each one's id before → after (the same id unless the remote took it). */
  readonly reapplied: ReadonlyMap<string, string> | undefined;
}

/**
 * Rebuilds one session's local DAG commits the remote lacks (`local` after its merge base with `remote`) on top of
 * the remote's DAG commit of that session. When the remote did not touch the session since the merge base, its
 * nodes, record and commit index entries are written exactly as here; when the remote moved, the pending nodes are
 * re-appended after the remote's head: same ids and content, the next `seq`s, the first one's predecessor the
 * remote's head. A node keeps its id unless the remote holds another node under it (ids made from session and seq
 * alone, the default, collide when two backends appended at the same seq): that one takes the id `ids` gives its
 * new seq, and edges to it are renamed alike. Their ContextCommits are dropped (never acknowledged; the next commit
 * makes them again). Nodes the remote already holds byte for byte (a push whose answer was lost) are left out, and an
 * index entry the remote already set is kept.
 *
 * Crash-safe: the rebase is built under a work ref of its own ({@link newWorkRef}, starting at `remote`); the
 * session's DAG ref moves once, by compare-and-swap from `local` to the finished tip. A crash before leaves the DAG
 * ref at `local` (the next sync rebases again) and a work ref that {@link sweepWorkRefs} removes.
 *
 * @throws `CommitConflictError` (retryable) when a local writer moved the DAG ref meanwhile
 */
export async function rebaseDag(ctx: GitContext, session: string, dagRef: string, local: string, remote: string, clock: () => number, ids: IdGenerator): Promise<DagRebase> {
  const base = await mergeBase(ctx, local, remote);
  const pending = await pendingWrites(ctx, session, local, base);
  const mine = await jsonAt<SessionRecord>(ctx, local, RECORD_PATH);
  const before = base === null ? undefined : await jsonAt<SessionRecord>(ctx, base, RECORD_PATH);
  const work = newWorkRef(ctx, session);
  await moveRef(ctx, session, work, null, remote);
  try {
    const store = new GitNodeStore(ctx, { clock, maxAttempts: 1, dagRefOf: (s) => (s === session ? work : sessionDagRef(s)) });
    const theirs = await store.getSession(session);
    const nodes: Node[] = [];
    for (const id of pending.nodeIds) {
      const node = await jsonAt<Node>(ctx, local, nodePath(id));
      const held = node === undefined ? undefined : await store.nodeIn(session, id);
      if (node !== undefined && (held === undefined || canonicalJson(held) !== canonicalJson(node))) nodes.push(node);
    }
    const indexOf = async (skip: ReadonlyMap<string, string>): Promise<CommitIndexEntry[]> => {
      const out: CommitIndexEntry[] = [];
      for (const [node, commit] of pending.index) {
        if (skip.has(node) || (await store.commitAt(session, node)) !== undefined) continue;
        out.push({ node, commit });
      }
      return out;
    };
    let reapplied: Map<string, string> | undefined;
    if (mine === undefined || theirs === undefined) {
      // nothing of this session to carry over
    } else if (theirs.version === (before?.version ?? null) || nodes.length === 0) {
      const index = await indexOf(new Map());
      const changed = nodes.length > 0 || mine.version !== theirs.version;
      if (changed && theirs.version === (before?.version ?? null)) {
        await store.writeWithIndex(session, { expected: theirs, next: { ...mine, version: theirs.version + 1 }, nodes }, index);
      } else if (index.length > 0) {
        await store.writeWithIndex(session, null, index);
      }
    } else {
      reapplied = new Map<string, string>();
      const to = (id: string): string => reapplied?.get(id) ?? id;
      let seq = theirs.nextSeq;
      const moved: Node[] = [];
      const taken = async (id: string): Promise<boolean> => moved.some((m) => m.id === id) || (await store.nodeIn(session, id)) !== undefined;
      for (const n of [...nodes].sort((a, b) => a.seq - b.seq)) {
        const { predecessor, caller, reads, ...rest } = n;
        // appended after the head the session had at the merge base (a root when it was empty): goes after the remote's head
        const onTop = caller === undefined && (predecessor === undefined || !reapplied.has(predecessor)) && (predecessor ?? null) === (before?.head ?? null);
        const pred = onTop ? (theirs.head ?? undefined) : predecessor === undefined ? undefined : to(predecessor);
        const id = (await taken(n.id)) ? ids(session, seq) : n.id;
        if (id !== n.id && (await taken(id))) throw new RemoteRejectedError(dagRef, `node id ${n.id} of session ${session} is taken on the remote, and so is ${id}: the id generator must give every (session, seq) its own id`);
        reapplied.set(n.id, id);
        moved.push({
          ...rest,
          id,
          seq: seq++,
          ...(pred === undefined ? {} : { predecessor: pred }),
          ...(caller === undefined ? {} : { caller: to(caller) }),
          ...(reads === undefined ? {} : { reads: reads.map(to) }),
        });
      }
      const head = mine.head !== null && reapplied.has(mine.head) ? to(mine.head) : theirs.head;
      const next = { ...theirs, head, nextSeq: seq, agentRunning: mine.agentRunning, version: theirs.version + 1 };
      await store.writeWithIndex(session, { expected: theirs, next, nodes: moved }, await indexOf(reapplied));
    }
    const tip = (await readRef(ctx, work)) ?? remote;
    await moveRef(ctx, session, dagRef, local, tip);
    return { tip, reapplied };
  } finally {
    await dropWorkRef(ctx, work);
  }
}
