import { randomUUID } from 'node:crypto';
import type { IdGenerator, Node, SessionRecord } from '@ctxgit/dag';
import { canonicalJson } from '../canonical-json.js';
import type { GitContext } from '../git/git-context.js';
import { readBlob } from '../git/read-blob.js';
import { readCommitObject } from '../git/read-commit-object.js';
import { readPath } from '../git/read-path.js';
import { readRef } from '../git/read-ref.js';
import { GitNodeStore } from '../store/git-node-store.js';
import { nodePath, sessionDir } from '../store/internal/dag-layout.js';
import { mergeBase } from './merge-base.js';
import { moveRef } from './move-ref.js';
import { RemoteRejectedError } from './remote-errors.js';

const decoder = new TextDecoder();

async function jsonAt<T>(ctx: GitContext, commit: string, path: string[]): Promise<T | undefined> {
  const { tree } = await readCommitObject(ctx, commit);
  const oid = await readPath(ctx, tree, path);
  return oid === undefined ? undefined : (JSON.parse(decoder.decode(await readBlob(ctx, oid))) as T);
}

/** True when the store holds this very node (same id, same bytes). */
async function sameNode(store: GitNodeStore, node: Node): Promise<boolean> {
  const theirs = await store.getNode(node.id);
  return theirs !== undefined && canonicalJson(theirs) === canonicalJson(node);
}

/** One session's DAG writes that the remote has not seen, oldest first. */
interface PendingWrites {
  readonly session: string;
  readonly nodeIds: string[];
}

/** The writes of the DAG commits after `base` up to `tip`, grouped by session in order of first write (from their `Session:` and `Node:` lines). */
async function pendingWrites(ctx: GitContext, tip: string, base: string | null): Promise<PendingWrites[]> {
  const commits: string[] = [];
  for (let at: string | undefined = tip; at !== undefined && at !== base; at = (await readCommitObject(ctx, at)).parents[0]) commits.push(at);
  const bySession = new Map<string, PendingWrites>();
  for (const oid of commits.reverse()) {
    const { message } = await readCommitObject(ctx, oid);
    const session = /^Session: (.*)$/mu.exec(message)?.[1];
    if (session === undefined) continue;
    let entry = bySession.get(session);
    if (entry === undefined) bySession.set(session, (entry = { session, nodeIds: [] }));
    for (const m of message.matchAll(/^Node: (.*)$/gmu)) entry.nodeIds.push(m[1] ?? '');
  }
  return [...bySession.values()];
}

/** What {@link rebaseDag} did. */
export interface DagRebase {
  /** The local DAG ref's new value. */
  readonly tip: string;
  /** Sessions whose pending nodes were re-appended on top of the remote's: their ids before → after. */
  readonly reapplied: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/**
 * Replays the local DAG writes the remote lacks (`local` after its merge base with `remote`) on top of `remote`.
 * A session the remote did not touch since the merge base gets its nodes and record exactly as written here; a
 * session the remote moved gets its pending nodes re-appended after the remote's head, as an append would write
 * them now: same content, the next `seq`s, their ids from `ids` (ids are a function of session and seq, so two
 * backends that appended at the same seq wrote the same id), edges between them renamed alike. Nodes the remote
 * already holds byte for byte (a push whose answer was lost) are left out. The result goes to a work ref, then the
 * local DAG ref moves from `local` to it by compare-and-swap.
 */
export async function rebaseDag(ctx: GitContext, dagRef: string, local: string, remote: string, clock: () => number, ids: IdGenerator): Promise<DagRebase> {
  const base = await mergeBase(ctx, local, remote);
  const writes = await pendingWrites(ctx, local, base);
  const work = `refs/ctxgit-sync/${randomUUID()}`;
  await moveRef(ctx, '(dag)', work, null, remote);
  const store = new GitNodeStore(ctx, { ref: work, clock, maxAttempts: 1 });
  const reapplied = new Map<string, Map<string, string>>();
  try {
    for (const { session, nodeIds } of writes) {
      const mine = await jsonAt<SessionRecord>(ctx, local, [...sessionDir(session), 'session.json']);
      if (mine === undefined) continue;
      const before = base === null ? undefined : await jsonAt<SessionRecord>(ctx, base, [...sessionDir(session), 'session.json']);
      const theirs = await store.getSession(session);
      const nodes: Node[] = [];
      for (const id of nodeIds) {
        const node = await jsonAt<Node>(ctx, local, nodePath(id));
        if (node !== undefined && !(await sameNode(store, node))) nodes.push(node);
      }
      if ((theirs?.version ?? null) === (before?.version ?? null)) {
        await store.write({ expected: theirs ?? null, next: { ...mine, version: (theirs?.version ?? 0) + 1 }, nodes });
        continue;
      }
      if (theirs === undefined || nodes.length === 0) continue;
      const renamed = new Map<string, string>();
      const to = (id: string): string => renamed.get(id) ?? id;
      let seq = theirs.nextSeq;
      const moved: Node[] = [];
      for (const n of [...nodes].sort((a, b) => a.seq - b.seq)) {
        const { predecessor, caller, reads, ...rest } = n;
        // appended after the head the session had at the merge base (a root when it was empty): goes after the remote's head
        const onTop = caller === undefined && (predecessor === undefined || !renamed.has(predecessor)) && (predecessor ?? null) === (before?.head ?? null);
        const pred = onTop ? (theirs.head ?? undefined) : predecessor === undefined ? undefined : to(predecessor);
        const id = ids(session, seq);
        if ((await store.getNode(id)) !== undefined) throw new RemoteRejectedError(dagRef, `node id ${id} of session ${session} is taken on the remote: the id generator must give every (session, seq) its own id`);
        renamed.set(n.id, id);
        moved.push({
          ...rest,
          id,
          seq: seq++,
          ...(pred === undefined ? {} : { predecessor: pred }),
          ...(caller === undefined ? {} : { caller: to(caller) }),
          ...(reads === undefined ? {} : { reads: reads.map(to) }),
        });
      }
      const head = mine.head !== null && renamed.has(mine.head) ? to(mine.head) : theirs.head;
      await store.write({ expected: theirs, next: { ...theirs, head, nextSeq: seq, agentRunning: mine.agentRunning, version: theirs.version + 1 }, nodes: moved });
      reapplied.set(session, renamed);
    }
    const tip = (await readRef(ctx, work)) ?? remote;
    await moveRef(ctx, '(dag)', dagRef, local, tip);
    return { tip, reapplied };
  } finally {
    await moveRef(ctx, '(dag)', work, await readRef(ctx, work), null);
  }
}
