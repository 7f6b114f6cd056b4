import type { ContextCommit, CreateSessionOptions, HistoryEntry, Repo, Session } from '@ctxgit/commit';
import type { TreeEdit } from '@ctxgit/commit/git';
import { HistoryDivergedError } from '@ctxgit/commit';
import { inBatch, listRefs } from '@ctxgit/commit/git';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { ChannelVersions, Checkpoint, CheckpointListOptions, CheckpointMetadata, CheckpointPendingWrite, CheckpointTuple, PendingWrite, SerializerProtocol } from '@langchain/langgraph-checkpoint';
import { BaseCheckpointSaver, TASKS, WRITES_IDX_MAP, compareWritesSortKeys, maxChannelVersion, writesSortKey } from '@langchain/langgraph-checkpoint';
import { decodeName, encodeName } from './encode-name.js';
import { MissingConfigError } from './errors.js';
import { HistoryMemo } from './messages-to-history.js';
import { THREADS_PREFIX, ThreadTree, checkpointDir, latestPath, versionDir } from './thread-tree.js';
import type { ThreadState } from './thread-tree.js';

/** Options of {@link CtxgitSaver}. */
export interface CtxgitSaverOptions {
  /** The repository (from `openRepo`) that holds the checkpoints and the sessions. */
  readonly repo: Repo;
  /** Options of the sessions created for threads (the model at least), e.g. `{ model: 'openai:gpt-4o' }`. */
  readonly session: CreateSessionOptions;
  /** The channel that holds the conversation. @defaultValue `'messages'` */
  readonly messagesChannel?: string;
  /** LangGraph's serializer. @defaultValue LangGraph's `JsonPlusSerializer` */
  readonly serde?: SerializerProtocol;
  /** Milliseconds since the epoch, for the dates of the thread commits. @defaultValue `Date.now` */
  readonly clock?: () => number;
}

/** The ctxgit side of a checkpoint: the session its messages went to and the ContextCommit of that turn. */
export interface CheckpointContext {
  readonly session: string;
  /** The ContextCommit of the session's head after the checkpoint's messages were appended. */
  readonly commit: string;
  readonly headNodeId: string;
}

/** The stored record of a checkpoint (`checkpoint.json`): the checkpoint without its channel values, its metadata, its parent. */
interface CheckpointRecord {
  readonly parent?: string;
  readonly checkpoint: Typed;
  readonly metadata: Typed;
  readonly context?: CheckpointContext;
}

/** A serialized value: JSON kept readable, other serializations as base64. */
type Typed = { readonly json: unknown } | { readonly type: string; readonly base64: string };

/** One stored pending write (`writes/<task>/<idx>.json`). */
interface WriteRecord {
  readonly task: string;
  readonly channel: string;
  readonly path: string;
  readonly value: Typed;
}

const utf8 = new TextDecoder();
/** A message's blob: its serialization type as its file names end (encoded once), and its object id. */
interface StoredMessage {
  readonly suffix: string;
  readonly oid: string;
}

/** Messages in a chunk of a stored message list (a tree of its own, shared by the versions that hold it whole). */
const LIST_CHUNK = 256;

/** A chunk of a stored message list: where it starts in the list (its entries name their index), its messages, by object, and its tree. */
interface StoredChunk {
  readonly from: number;
  readonly members: readonly object[];
  readonly oid: string;
}

/** What a put writes, remembered once it has landed: message blobs by message, chunk trees by their first message. */
interface Written {
  readonly messages: Map<object, StoredMessage>;
  readonly chunks: Map<object, StoredChunk>;
}

/** Sessions a saver keeps open, and threads whose last message list it keeps (threads in use at once; a session closed is opened again on its next put). */
const OPEN_SESSIONS = 32;

/** `value` set under `key` as the newest entry of `map`, the oldest dropped past {@link OPEN_SESSIONS}; returns `value`. */
function keepLatest<V>(map: Map<string, V>, key: string, value: V): V {
  map.delete(key);
  map.set(key, value);
  for (const old of map.keys()) {
    if (map.size <= OPEN_SESSIONS) break;
    map.delete(old);
  }
  return value;
}

function typed([type, bytes]: [string, Uint8Array]): Typed {
  return type === 'json' ? { json: JSON.parse(utf8.decode(bytes)) as unknown } : { type, base64: Buffer.from(bytes).toString('base64') };
}

function untyped(t: Typed): [string, Uint8Array | string] {
  return 'json' in t ? ['json', JSON.stringify(t.json)] : [t.type, Buffer.from(t.base64, 'base64')];
}

function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function field(config: RunnableConfig, name: string): string | undefined {
  const v: unknown = config.configurable?.[name];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/**
 * A LangGraph.js checkpointer that keeps every thread in a ctxgit repository: one git ref per thread
 * (`refs/langgraph/<thread>`), one git commit per `put`, `putWrites` and `deleteThread`, and in the thread's tree
 * one folder per checkpoint namespace holding each checkpoint (`checkpoint.json`, its pending `writes/`) and each
 * channel value once per version (`channels/<channel>/<xx>/<version>.<type>`; `<xx>` is one of 256 folders, as for
 * checkpoints), shared by every checkpoint that holds that
 * version. The messages channel is also appended to a ctxgit session per thread and namespace (only what is new),
 * and each checkpoint records the ContextCommit of that turn, so ctxgit's rules and `render` apply to the
 * conversation; each message of it is its own blob, shared by every version that holds it. Messages trimmed at the
 * front continue the session; messages that no longer match it at all go on in a fresh session (`<thread>.2`, …).
 *
 * `deleteThread` empties the thread's tree in a new commit: LangGraph no longer sees it, git keeps its history (and
 * the session keeps its DAG, which is append-only); a thread id used again gets a fresh session.
 *
 * @example
 * ```ts
 * const repo = await openRepo({ dir: './agent.git' });
 * const checkpointer = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
 * const graph = new StateGraph(MessagesAnnotation).addNode('agent', callModel).addEdge(START, 'agent').compile({ checkpointer });
 * await graph.invoke({ messages: [new HumanMessage('hi')] }, { configurable: { thread_id: 't-1' } });
 * ```
 */
export class CtxgitSaver extends BaseCheckpointSaver {
  readonly #repo: Repo;
  readonly #tree: ThreadTree;
  readonly #sessionOptions: CreateSessionOptions;
  readonly #messages: string;
  /** Writes per thread, one after the other (LangGraph runs tasks in parallel). */
  readonly #queues = new Map<string, Promise<unknown>>();
  /** The sessions opened lately, newest last: a session kept open matches the next put's messages against the branch it holds. */
  readonly #open = new Map<string, Session>();
  /**
   * The messages earlier puts stored, by object: a message is serialized and written once, later versions of the list
   * name its blob (LangGraph's reducers replace a message by a new object, never change one in place).
   */
  readonly #stored = new WeakMap<object, StoredMessage>();
  /** The chunk trees of the message lists earlier puts stored, by their first message (see {@link LIST_CHUNK}). */
  readonly #chunks = new WeakMap<object, StoredChunk>();
  /**
   * The message lists of the threads put lately (per thread and namespace, newest last, as many as {@link OPEN_SESSIONS}):
   * a put converts only its new messages, and the session, given the same entry objects as the put before, compares
   * only those (see `Session.appendNew`).
   */
  readonly #histories = new Map<string, HistoryMemo>();

  /** @param opts - see {@link CtxgitSaverOptions} */
  constructor(opts: CtxgitSaverOptions) {
    super(opts.serde);
    this.#repo = opts.repo;
    this.#tree = new ThreadTree(opts.repo.git, opts.clock ?? Date.now);
    this.#sessionOptions = opts.session;
    this.#messages = opts.messagesChannel ?? 'messages';
  }

  /**
   * The ctxgit side of a checkpoint: the session holding the thread's messages and the ContextCommit of that turn,
   * or undefined when the checkpoint holds no messages.
   *
   * @param config - `{ configurable: { thread_id, checkpoint_ns?, checkpoint_id? } }`; the latest checkpoint when no id
   * @returns the session name, commit id and head node, or undefined
   * @example
   * ```ts
   * const ctx = await checkpointer.context({ configurable: { thread_id: 't-1' } });
   * const body = render(await repo.readCommit(ctx!.commit), { provider: 'anthropic' });
   * ```
   */
  async context(config: RunnableConfig): Promise<CheckpointContext | undefined> {
    const threadId = field(config, 'thread_id');
    if (threadId === undefined) throw new MissingConfigError('context', 'thread_id');
    const state = await this.#tree.state(threadId);
    const found = await this.#find(state, field(config, 'checkpoint_ns') ?? '', field(config, 'checkpoint_id'));
    return found?.record.context;
  }

  /** @inheritDoc */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = field(config, 'thread_id');
    if (threadId === undefined) return undefined;
    const ns = field(config, 'checkpoint_ns') ?? '';
    const state = await this.#tree.state(threadId);
    const found = await this.#find(state, ns, field(config, 'checkpoint_id'));
    return found === undefined ? undefined : this.#tuple(state, threadId, ns, found.id, found.record);
  }

  /** @inheritDoc */
  async *list(config: RunnableConfig, options: CheckpointListOptions = {}): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options;
    let limit = options.limit;
    const onlyThread = field(config, 'thread_id');
    const onlyNs = field(config, 'checkpoint_ns');
    const onlyId = field(config, 'checkpoint_id');
    const beforeId = before === undefined ? undefined : field(before, 'checkpoint_id');
    const threads = onlyThread !== undefined ? [onlyThread] : (await listRefs(this.#repo.git, THREADS_PREFIX)).map((r) => decodeName(r.slice(THREADS_PREFIX.length)));
    for (const threadId of threads) {
      const state = await this.#tree.state(threadId);
      for (const nsEntry of await this.#tree.list(state.tree, [])) {
        const ns = decodeName(nsEntry.path.slice(3));
        if (onlyNs !== undefined && ns !== onlyNs) continue;
        const ids: string[] = [];
        for (const folder of await this.#tree.list(state.tree, [nsEntry.path, 'checkpoints'])) {
          for (const e of await this.#tree.list(state.tree, [nsEntry.path, 'checkpoints', folder.path])) ids.push(decodeName(e.path));
        }
        ids.sort().reverse();
        for (const id of ids) {
          if (onlyId !== undefined && id !== onlyId) continue;
          if (beforeId !== undefined && id >= beforeId) continue;
          const record = await this.#record(state, ns, id);
          if (record === undefined) continue;
          if (filter !== undefined) {
            const metadata = (await this.serde.loadsTyped(...untyped(record.metadata))) as Record<string, unknown>;
            if (!Object.entries(filter).every(([k, v]) => metadata[k] === v)) continue;
          }
          if (limit !== undefined) {
            if (limit <= 0) return;
            limit -= 1;
          }
          yield await this.#tuple(state, threadId, ns, id, record);
        }
      }
    }
  }

  /** @inheritDoc */
  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const threadId = field(config, 'thread_id');
    if (threadId === undefined) throw new MissingConfigError('put', 'thread_id');
    const ns = field(config, 'checkpoint_ns') ?? '';
    const parent = field(config, 'checkpoint_id');
    // one put at a time per thread: the session append and the thread commit in order
    await this.#serial(threadId, async () => {
      const { channel_values: values, ...rest } = checkpoint;
      const edits: TreeEdit[] = [];
      // the messages and chunks this put writes, remembered once it has landed
      const written: Written = { messages: new Map(), chunks: new Map() };
      const before = await this.#tree.state(threadId);
      // the parent's ContextCommit stays the checkpoint's until the messages change
      const from = parent === undefined ? undefined : await this.#record(before, ns, parent);
      let history: readonly HistoryEntry[] | undefined;
      for (const [channel, version] of Object.entries(newVersions)) {
        if (!Object.prototype.hasOwnProperty.call(values, channel)) continue;
        const value: unknown = values[channel];
        const converted = channel === this.#messages ? this.#history(threadId, ns).convert(value) : undefined;
        edits.push(...(await this.#valueEdits(versionDir(ns, channel, String(version)), String(version), value, converted !== undefined ? written : undefined)));
        if (converted !== undefined) history = converted;
      }
      const checkpointTyped = typed(await this.serde.dumpsTyped(rest));
      const metadataTyped = typed(await this.serde.dumpsTyped(metadata));
      const step = typeof metadata?.step === 'number' ? ` step ${metadata.step}` : '';
      const message = `checkpoint ${checkpoint.id}${ns === '' ? '' : ` in ${ns}`}${step}${metadata?.source === undefined ? '' : ` (${metadata.source})`}`;
      // the thread's edits with the record naming the checkpoint's ContextCommit
      const withRecord = async (context: CheckpointContext | undefined): Promise<TreeEdit[]> => {
        const record: CheckpointRecord = {
          ...(parent === undefined ? {} : { parent }),
          checkpoint: checkpointTyped,
          metadata: metadataTyped,
          ...(context === undefined ? {} : { context }),
        };
        const oid = await this.#tree.writeBlob(pretty(record));
        return [...edits, { path: [...checkpointDir(ns, checkpoint.id), 'checkpoint.json'], oid, type: 'blob' }];
      };
      // with a new turn, the thread's commit is written before the session's refs move (one pack for both); its ref
      // moves after them
      let early: { context: CheckpointContext; edits: TreeEdit[]; commit: string } | undefined;
      let context = from?.context;
      if (history !== undefined && history.length === 0) context = undefined;
      else if (history !== undefined) {
        context = await this.#mirror(before, threadId, ns, context?.session, history, async (turn) => {
          const all = await withRecord(turn);
          early = { context: turn, edits: all, commit: await this.#tree.prepare(before, [...all, ...(await this.#latestEdits(before, ns, checkpoint.id))], message) };
        });
      }
      const kept = early !== undefined && early.context.commit === context?.commit && early.context.session === context.session ? early : undefined;
      const final = kept?.edits ?? (await withRecord(context));
      await this.#tree.change(threadId, async (state) => ({ edits: [...final, ...(await this.#latestEdits(state, ns, checkpoint.id))], message }), kept === undefined ? undefined : { state: before, commit: kept.commit });
      for (const [message, stored] of written.messages) this.#stored.set(message, stored);
      for (const [first, chunk] of written.chunks) this.#chunks.set(first, chunk);
    });
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  /** @inheritDoc */
  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const threadId = field(config, 'thread_id');
    if (threadId === undefined) throw new MissingConfigError('putWrites', 'thread_id');
    const checkpointId = field(config, 'checkpoint_id');
    if (checkpointId === undefined) throw new MissingConfigError('putWrites', 'checkpoint_id');
    const ns = field(config, 'checkpoint_ns') ?? '';
    const base = [...checkpointDir(ns, checkpointId), 'writes', encodeName(taskId)];
    const records = await Promise.all(
      writes.map(async ([channel, value], i) => {
        const record: WriteRecord = { task: taskId, channel, path: taskPath ?? '', value: typed(await this.serde.dumpsTyped(value)) };
        return { idx: WRITES_IDX_MAP[channel] ?? i, bytes: pretty(record) };
      }),
    );
    await this.#serial(threadId, async () => {
      const blobs = await Promise.all(records.map(async ({ idx, bytes }) => ({ idx, oid: await this.#tree.writeBlob(bytes) })));
      await this.#tree.change(threadId, async (state) => {
        const edits: TreeEdit[] = [];
        for (const { idx, oid } of blobs) {
          const path = [...base, `${idx}.json`];
          if (idx >= 0 && (await this.#tree.lookup(state.tree, path)) !== undefined) continue;
          edits.push({ path, oid, type: 'blob' });
        }
        return { edits, message: `writes of task ${taskId} on checkpoint ${checkpointId}${ns === '' ? '' : ` in ${ns}`}` };
      });
    });
  }

  /** @inheritDoc */
  async deleteThread(threadId: string): Promise<void> {
    await this.#serial(threadId, async () => {
      if ((await this.#tree.state(threadId)).commit === null) return;
      await this.#tree.change(threadId, async () => ({ edits: null, message: `delete thread ${threadId}` }));
    });
  }

  /** The history memo of a thread's namespace, made the newest (the oldest past {@link OPEN_SESSIONS} dropped). */
  #history(threadId: string, ns: string): HistoryMemo {
    const key = `${threadId}\0${ns}`;
    return keepLatest(this.#histories, key, this.#histories.get(key) ?? new HistoryMemo());
  }

  /**
   * Runs `fn` after every earlier write of the thread (in this saver), as one batch of writes: its objects go to the
   * repository as a pack before each ref it moves, not as a file (and an fsync) each.
   */
  async #serial<T>(threadId: string, fn: () => Promise<T>): Promise<T> {
    const before = this.#queues.get(threadId) ?? Promise.resolve();
    const batch = (): Promise<T> => inBatch(this.#repo.git, fn);
    const run = before.then(batch, batch);
    const settled = run.catch(() => undefined);
    this.#queues.set(threadId, settled);
    try {
      return await run;
    } finally {
      if (this.#queues.get(threadId) === settled) this.#queues.delete(threadId);
    }
  }

  /**
   * The tree edits that store a channel value at `<base>/<version>.<type>`; a list of messages (`messages`: where the
   * put records the blobs and chunk trees it writes) is stored one blob per message under
   * `<base>/<version>.list/<chunk>/<index>.<type>`, {@link LIST_CHUNK} messages a chunk, so that a message is written
   * once and a chunk an earlier version holds whole is named by its tree: a put rewrites the last chunk, not the list.
   */
  async #valueEdits(base: readonly string[], version: string, value: unknown, messages: Written | undefined): Promise<TreeEdit[]> {
    if (messages === undefined || !Array.isArray(value)) {
      const [type, bytes] = await this.serde.dumpsTyped(value);
      return [{ path: [...base, `${encodeName(version)}.${encodeName(type)}`], oid: await this.#tree.writeBlob(bytes), type: 'blob' }];
    }
    const list = [...base, `${encodeName(version)}.list`];
    if (value.length === 0) return [{ path: [...list, 'empty'], oid: await this.#tree.writeBlob(''), type: 'blob' }];
    const edits: TreeEdit[] = [];
    for (let from = 0; from < value.length; from += LIST_CHUNK) {
      const members = (value as object[]).slice(from, from + LIST_CHUNK);
      const name = String(from / LIST_CHUNK).padStart(4, '0');
      const known = this.#chunks.get(members[0] as object) ?? messages.chunks.get(members[0] as object);
      if (known !== undefined && known.from === from && known.members.length === members.length && known.members.every((m, i) => m === members[i])) {
        edits.push({ path: [...list, name], oid: known.oid, type: 'tree' });
        continue;
      }
      const entries: TreeEdit[] = [];
      for (const [i, message] of members.entries()) {
        let stored = this.#stored.get(message) ?? messages.messages.get(message);
        if (stored === undefined) {
          const [type, bytes] = await this.serde.dumpsTyped(message);
          stored = { suffix: encodeName(type), oid: await this.#tree.writeBlob(bytes) };
          messages.messages.set(message, stored);
        }
        entries.push({ path: [`${String(from + i).padStart(6, '0')}.${stored.suffix}`], oid: stored.oid, type: 'blob' });
      }
      const oid = await this.#tree.writeTree(entries);
      messages.chunks.set(members[0] as object, { from, members, oid });
      edits.push({ path: [...list, name], oid, type: 'tree' });
    }
    return edits;
  }

  /** Appends the new messages to the session, and commits; `beforeRefs` gets the context of a new turn before the session's refs move. */
  async #mirror(
    state: ThreadState,
    threadId: string,
    ns: string,
    parentSession: string | undefined,
    history: readonly HistoryEntry[],
    beforeRefs: (context: CheckpointContext) => Promise<void>,
  ): Promise<CheckpointContext> {
    let session = await this.#session(state, threadId, ns, parentSession);
    // the new messages and their commit land in one write; the session options' request frame holds for every
    // commit, a reopened session's too
    const request = this.#sessionOptions.request;
    const commitOptions = { commit: request === undefined ? {} : { request } };
    const options = (s: Session) => ({ ...commitOptions, beforeRefs: (c: ContextCommit) => beforeRefs({ session: s.name, commit: c.id, headNodeId: c.headNodeId }) });
    let commit: ContextCommit;
    try {
      ({ commit } = await session.appendNew(history, options(session)));
    } catch (err) {
      if (!(err instanceof HistoryDivergedError)) throw err;
      // the messages no longer match the session (replaced): they go on in a fresh session
      session = await this.#session(state, threadId, ns, parentSession, true);
      ({ commit } = await session.appendNew(history, options(session)));
    }
    return { session: session.name, commit: commit.id, headNodeId: commit.headNodeId };
  }

  /** The session of a thread and namespace: the parent checkpoint's, else the one its latest checkpoint names, else (or when `fresh`) a new one. */
  async #session(state: ThreadState, threadId: string, ns: string, parentSession: string | undefined, fresh = false): Promise<Session> {
    const named = fresh ? undefined : (parentSession ?? (await this.#find(state, ns, undefined))?.record.context?.session);
    if (named !== undefined) return this.#kept(named, () => this.#repo.openSession(named));
    const base = ns === '' ? encodeName(threadId) : `${encodeName(threadId)}.${encodeName(ns)}`;
    const taken = new Set(await this.#repo.listSessions());
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base}.${n}`;
    return this.#kept(name, () => this.#repo.createSession(name, this.#sessionOptions));
  }

  /** The session kept open under `name`, else `open()`'s, kept for the next puts (the {@link OPEN_SESSIONS} latest). */
  async #kept(name: string, open: () => Promise<Session>): Promise<Session> {
    return keepLatest(this.#open, name, this.#open.get(name) ?? (await open()));
  }

  async #record(state: ThreadState, ns: string, id: string): Promise<CheckpointRecord | undefined> {
    const bytes = await this.#tree.blob(state.tree, [...checkpointDir(ns, id), 'checkpoint.json']);
    return bytes === undefined ? undefined : (JSON.parse(utf8.decode(bytes)) as CheckpointRecord);
  }

  /** The checkpoint with this id, or the latest of the namespace when no id. */
  async #find(state: ThreadState, ns: string, id: string | undefined): Promise<{ id: string; record: CheckpointRecord } | undefined> {
    const target = id ?? (await this.#latest(state, ns));
    if (target === undefined) return undefined;
    const record = await this.#record(state, ns, target);
    return record === undefined ? undefined : { id: target, record };
  }

  /** The greatest checkpoint id of the namespace (`latest`), or undefined for none. */
  async #latest(state: ThreadState, ns: string): Promise<string | undefined> {
    const bytes = await this.#tree.blob(state.tree, latestPath(ns));
    return bytes === undefined ? undefined : utf8.decode(bytes).slice(0, -1);
  }

  /** The edit that makes `id` the namespace's latest checkpoint on `state` when it is greater than the one there (none otherwise). */
  async #latestEdits(state: ThreadState, ns: string, id: string): Promise<TreeEdit[]> {
    const latest = await this.#latest(state, ns);
    return latest !== undefined && latest >= id ? [] : [{ path: latestPath(ns), oid: await this.#tree.writeBlob(`${id}\n`), type: 'blob' }];
  }

  async #writes(state: ThreadState, ns: string, id: string): Promise<CheckpointPendingWrite[]> {
    const base = [...checkpointDir(ns, id), 'writes'];
    const keyed: { key: ReturnType<typeof writesSortKey>; write: CheckpointPendingWrite }[] = [];
    for (const task of await this.#tree.list(state.tree, base)) {
      for (const entry of await this.#tree.list(state.tree, [...base, task.path])) {
        const record = JSON.parse(utf8.decode(await this.#tree.readOid(entry.oid))) as WriteRecord;
        const idx = Number(entry.path.slice(0, -'.json'.length));
        keyed.push({ key: writesSortKey(record.path, record.task, idx), write: [record.task, record.channel, await this.serde.loadsTyped(...untyped(record.value))] });
      }
    }
    return keyed.sort((a, b) => compareWritesSortKeys(a.key, b.key)).map((k) => k.write);
  }

  async #values(state: ThreadState, ns: string, versions: Readonly<Record<string, string | number>>): Promise<Record<string, unknown>> {
    const values: Record<string, unknown> = {};
    for (const [channel, version] of Object.entries(versions)) {
      const base = versionDir(ns, channel, String(version));
      const prefix = `${encodeName(String(version))}.`;
      const entry = (await this.#tree.list(state.tree, base)).find((e) => e.path.startsWith(prefix));
      if (entry === undefined) continue;
      const type = decodeName(entry.path.slice(prefix.length));
      if (entry.type === 'blob') {
        values[channel] = await this.serde.loadsTyped(type, await this.#tree.readOid(entry.oid));
        continue;
      }
      const list: unknown[] = [];
      for (const chunk of await this.#tree.list(state.tree, [...base, entry.path])) {
        if (chunk.type !== 'tree') continue;
        const items = await this.#tree.list(state.tree, [...base, entry.path, chunk.path]);
        const members = await Promise.all(items.map(async (e) => this.serde.loadsTyped(decodeName(e.path.slice(7)), await this.#tree.readOid(e.oid))));
        this.#remember(Number(chunk.path) * LIST_CHUNK, chunk.oid, items, members);
        list.push(...members);
      }
      values[channel] = list;
    }
    return values;
  }

  /**
   * The messages of a stored chunk as read back, remembered as if this saver had put them (their blobs, the chunk's
   * tree): the put that follows a read (LangGraph reads the thread, then puts its list with the new messages) writes
   * only what is new, not every message again.
   */
  #remember(from: number, oid: string, items: readonly { path: string; oid: string }[], members: readonly unknown[]): void {
    if (!members.every((m): m is object => typeof m === 'object' && m !== null)) return;
    members.forEach((m, i) => {
      const e = items[i] as { path: string; oid: string };
      this.#stored.set(m, { suffix: e.path.slice(7), oid: e.oid });
    });
    if (members.length > 0) this.#chunks.set(members[0] as object, { from, members, oid });
  }

  async #tuple(state: ThreadState, threadId: string, ns: string, id: string, record: CheckpointRecord): Promise<CheckpointTuple> {
    const stored = (await this.serde.loadsTyped(...untyped(record.checkpoint))) as Omit<Checkpoint, 'channel_values'>;
    const checkpoint: Checkpoint = { ...stored, channel_values: await this.#values(state, ns, stored.channel_versions) };
    if (checkpoint.v < 4 && record.parent !== undefined) {
      // checkpoints before format 4 kept pending sends as the parent's TASKS writes
      const sends = (await this.#writes(state, ns, record.parent)).filter(([, channel]) => channel === TASKS).map(([, , value]) => value);
      checkpoint.channel_values[TASKS] = sends;
      const versions = Object.values(checkpoint.channel_versions);
      checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
    }
    const at = (checkpoint_id: string): RunnableConfig => ({ configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id } });
    return {
      config: at(id),
      checkpoint,
      metadata: (await this.serde.loadsTyped(...untyped(record.metadata))) as CheckpointMetadata,
      pendingWrites: await this.#writes(state, ns, id),
      ...(record.parent === undefined ? {} : { parentConfig: at(record.parent) }),
    };
  }
}
