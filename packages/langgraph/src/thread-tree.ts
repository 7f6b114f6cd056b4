import type { GitContext, TreeEdit } from '@ctxgit/commit/git';
import { RefConflictError } from '@ctxgit/commit';
import { compareAndSwapRef, listTree, readBlob, readCommitObject, readPath, readRef, updateTree, writeBlob, writeCommit } from '@ctxgit/commit/git';
import { encodeName } from './encode-name.js';

/** Prefix of the refs of the saver: one ref per thread, `refs/langgraph/<thread>`. */
export const THREADS_PREFIX = 'refs/langgraph/';

/** The ref of a thread. */
export function threadRef(threadId: string): string {
  return `${THREADS_PREFIX}${encodeName(threadId)}`;
}

/** The folder of a checkpoint namespace inside a thread's tree (`ns_` for the root namespace `""`). */
function nsDir(ns: string): string {
  return `ns_${encodeName(ns)}`;
}

/**
 * The folder (of 256) a name's entry goes in: two hex digits of the FNV-1a hash of its encoded form, so that a put
 * rewrites a folder of 1/256 of a namespace's checkpoints (or of a channel's versions), not one of all of them.
 */
function shard(encoded: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < encoded.length; i++) h = Math.imul(h ^ encoded.charCodeAt(i), 0x01000193);
  return ((h ^ (h >>> 8) ^ (h >>> 16) ^ (h >>> 24)) & 0xff).toString(16).padStart(2, '0');
}

/** The folder of a checkpoint: `ns_<ns>/checkpoints/<shard>/<id>`. */
export function checkpointDir(ns: string, id: string): string[] {
  const name = encodeName(id);
  return [nsDir(ns), 'checkpoints', shard(name), name];
}

/** The folder of a channel's values whose version is `version`: `ns_<ns>/channels/<channel>/<shard>`. */
export function versionDir(ns: string, channel: string, version: string): string[] {
  return [nsDir(ns), 'channels', encodeName(channel), shard(encodeName(version))];
}

/** The file naming a namespace's greatest checkpoint id (what a read without an id returns): `ns_<ns>/latest`. */
export function latestPath(ns: string): string[] {
  return [nsDir(ns), 'latest'];
}

/** The state of a thread: its ref's commit and that commit's tree (null for a thread never written or deleted). */
export interface ThreadState {
  readonly commit: string | null;
  readonly tree: string | null;
}

/** Reads and edits one thread's tree in git; each change is one commit on the thread's ref. @internal */
export class ThreadTree {
  readonly #git: GitContext;
  readonly #clock: () => number;

  constructor(git: GitContext, clock: () => number) {
    this.#git = git;
    this.#clock = clock;
  }

  async state(threadId: string): Promise<ThreadState> {
    const commit = await readRef(this.#git, threadRef(threadId));
    if (commit === null) return { commit: null, tree: null };
    return { commit, tree: (await readCommitObject(this.#git, commit)).tree };
  }

  async blob(tree: string | null, path: readonly string[]): Promise<Uint8Array | undefined> {
    if (tree === null) return undefined;
    const oid = await readPath(this.#git, tree, path);
    return oid === undefined ? undefined : readBlob(this.#git, oid);
  }

  async list(tree: string | null, path: readonly string[]): Promise<readonly { path: string; oid: string; type: 'blob' | 'tree' }[]> {
    return tree === null ? [] : listTree(this.#git, tree, path);
  }

  async readOid(oid: string): Promise<Uint8Array> {
    return readBlob(this.#git, oid);
  }

  async writeBlob(data: Uint8Array | string): Promise<string> {
    return writeBlob(this.#git, data);
  }

  /** A tree of `entries` (paths relative to it), written. */
  async writeTree(entries: readonly TreeEdit[]): Promise<string> {
    return updateTree(this.#git, null, entries);
  }

  async lookup(tree: string | null, path: readonly string[]): Promise<string | undefined> {
    return tree === null ? undefined : readPath(this.#git, tree, path);
  }

  /** The commit of `edits` on `state` (`null` empties the tree: a deleted thread), written, its ref not moved. */
  async prepare(state: ThreadState, edits: readonly TreeEdit[] | null, message: string): Promise<string> {
    const tree = edits === null ? await updateTree(this.#git, null, []) : await updateTree(this.#git, state.tree, edits);
    const when = { name: 'ctxgit langgraph', email: 'langgraph@ctxgit', timestamp: Math.floor(this.#clock() / 1000), timezoneOffset: 0 };
    return writeCommit(this.#git, { tree, parents: state.commit === null ? [] : [state.commit], message, author: when });
  }

  /**
   * Applies `build(state)`'s edits as one commit on the thread's ref, rebuilt on the new state when another writer
   * moved or held the ref (up to 20 times, waiting 2, 4, 6, … ms). `prepared`: a commit already written on a state,
   * tried first. `edits: null` empties the tree (a deleted thread).
   */
  async change(
    threadId: string,
    build: (state: ThreadState) => Promise<{ edits: readonly TreeEdit[] | null; message: string }>,
    prepared?: { readonly state: ThreadState; readonly commit: string },
  ): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      let state: ThreadState;
      let commit: string;
      if (attempt === 0 && prepared !== undefined) ({ state, commit } = prepared);
      else {
        state = await this.state(threadId);
        const { edits, message } = await build(state);
        commit = await this.prepare(state, edits, message);
      }
      try {
        await compareAndSwapRef(this.#git, threadRef(threadId), state.commit, commit);
        return;
      } catch (err) {
        if (!(err instanceof RefConflictError) || attempt >= 20) throw err;
        // another writer holds or moved the ref: wait a little longer each time, then rebuild on its commit
        await new Promise((resolve) => setTimeout(resolve, 2 * (attempt + 1)));
      }
    }
  }
}
