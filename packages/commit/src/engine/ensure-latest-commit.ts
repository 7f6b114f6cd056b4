import type { Node } from '@ctxgit/dag';
import { canonicalJson, MissingNodeError } from '@ctxgit/dag';
import type { ContextItem, PipelineInput } from '@ctxgit/rules';
import { LAYOUT_FORMAT } from '../store/commit-meta.js';
import type { CommitMeta } from '../store/commit-meta.js';
import { commitMessage } from '../store/commit-message.js';
import { CommitConflictError, EmptySessionError, UnknownSessionError } from '../errors.js';
import { RefConflictError } from '../git/errors.js';
import type { CommitIndexEntry } from '../store/git-node-store.js';
import type { DagSnapshot } from '../store/session-node-view.js';
import { attachPointerOf, expandAttach } from './expand-attach.js';
import { readRef } from '../git/read-ref.js';
import { writeBlob } from '../git/write-blob.js';
import { contextRef } from '../store/refs.js';
import { dagWrite } from './conflict.js';
import type { SessionDag } from './session-dag.js';
import { storedDag } from './session-dag.js';
import type { RepoCore } from '../store/repo-core.js';
import { loadCommit, remember } from '../store/repo-core.js';
import { swapRefAfter } from '../store/swap-ref.js';
import type { SessionSettings } from './session-settings.js';
import type { StoredCommit } from '../store/stored-commit.js';
import { holdsNode } from '../store/stored-commit.js';
import { writeStoredCommit } from '../store/write-stored-commit.js';
import { inPlaceChanges } from '../store/layout/in-place-changes.js';
import { loadFolds } from '../store/layout/fold-tree.js';
import { carryStates, countStates } from '../store/layout/state-counts.js';
import type { PinRecord } from './pins/pin-record.js';
import { pinRecordOf } from './pins/pin-record.js';
import { runTurnPipeline } from './turn-pipeline.js';
import type { CachedFold } from './fold-cache.js';
import { nextCommitTools } from '../store/tools/next-commit-tools.js';

/** A commit of the session's head: found through the index (`isNew` false) or just written (objects only, no ref moved). */
export interface LatestCommit {
  readonly stored: StoredCommit;
  /** The head node it was found or written for. */
  readonly head: string;
  readonly isNew: boolean;
  /** The index entry of the head when it was read (undefined: none): the index write expects it. */
  readonly indexed: string | undefined;
}

/**
 * The ContextCommit of the session's head: found through the commit index when the head has one that holds every
 * node of its branch, else written from the nearest commit on the head's ancestor chain (its items, plus the
 * branch's new nodes as `full` items and attach expansions, through the rule pipeline). Writes the new commit's
 * objects only: the caller records it in the index and moves the context ref.
 */
export async function buildLatestCommit(core: RepoCore, s: SessionSettings, dag: SessionDag): Promise<LatestCommit> {
  const rec = await dag.getSession();
  if (rec === undefined) throw new UnknownSessionError(s.name);
  if (rec.head === null) throw new EmptySessionError(s.name);
  const must = async (id: string): Promise<Node> => {
    const n = await dag.getNode(id);
    if (n === undefined) throw new MissingNodeError({ missing: id, reference: 'node' });
    return n;
  };
  const chain: Node[] = [];
  let node = await must(rec.head);
  let hit: string | undefined;
  for (;;) {
    hit = await dag.commitAt(node.id);
    if (hit !== undefined) break;
    chain.push(node);
    if (node.predecessor === undefined) break;
    node = await must(node.predecessor);
  }
  const base = hit === undefined ? null : await loadCommit(core, hit);
  const taken = new Set<string>();
  const covered = (id: string): boolean => taken.has(id) || (base !== null && holdsNode(base, id));
  const fresh: Node[] = [];
  const take = async (n: Node): Promise<void> => {
    if (!covered(n.id)) {
      taken.add(n.id);
      fresh.push(n);
    }
    if (n.role !== 'assistant') return;
    for (const id of await dag.calleesOf(n.id)) {
      if (covered(id)) continue;
      taken.add(id);
      fresh.push(await must(id));
    }
  };
  // A pin record is not an item: the commit of its node applied it already.
  if (base !== null && pinRecordOf(node) === undefined) await take(node);
  for (let i = chain.length - 1; i >= 0; i--) await take(chain[i] as Node);
  const indexed = chain.length === 0 ? hit : undefined;
  if (base !== null && fresh.length === 0) return { stored: base, head: rec.head, isNew: false, indexed };
  const inputs: PipelineInput[] = [];
  const origins = new Map<string, string>();
  const parents: string[] = base === null ? [] : [base.commit.id];
  const merged: { session: string; commit: string }[] = [];
  const pins: PinRecord[] = [];
  for (const n of fresh) {
    const pin = pinRecordOf(n);
    if (pin !== undefined) {
      pins.push(pin);
      continue;
    }
    const pointer = attachPointerOf(n);
    if (pointer === undefined) {
      inputs.push(n);
      origins.set(n.id, await writeBlob(core.git, canonicalJson(n)));
      continue;
    }
    const expansion = await expandAttach(core, n, pointer, await branchNodes(dag, n));
    inputs.push(...expansion.items);
    for (const [k, v] of expansion.origins) origins.set(k, v);
    if (pointer.merge !== undefined && expansion.source !== undefined) {
      const id = expansion.source.commit.id;
      if (!parents.includes(id)) parents.push(id);
      merged.push({ session: pointer.source.session, commit: id });
    }
  }
  const now = s.clock();
  // A fold that absorbs a summary of the base reads what that summary folded (only then: the live list is the input),
  // a level at a time as the rules ask; with a summarizer, every level (it reads all the originals).
  const trees = new Map(base?.foldTrees);
  const loadFolded = (key: string, into: Map<string, readonly ContextItem[]>): Promise<boolean> => loadFolds(core.git, key, trees, into, s.summarizer !== undefined);
  // What this session's commits folded is held: a merge of its summaries reads no originals, and the rules run once.
  const held = (key: string): readonly ContextItem[] | undefined => {
    const tree = trees.get(key);
    const fold = tree === undefined ? undefined : s.foldCache.get(tree);
    for (const [k, t] of fold?.trees ?? []) trees.set(k, t);
    return fold?.items;
  };
  const { result, notes } = await runTurnPipeline(core.store, base?.commit.items ?? [], inputs, pins, s, now, loadFolded, held);
  const r = result.report;
  const summary = { added: r.added, aged: r.aged, cleared: r.cleared, folded: r.folded, firstChangedIndex: result.firstChangedIndex };
  const meta: CommitMeta = {
    format: LAYOUT_FORMAT,
    session: s.name,
    turn: (base?.meta.turn ?? 0) + 1,
    headNodeId: rec.head,
    rulesVersion: s.rulesVersion,
    model: s.model,
    window: s.window,
    historyBudget: s.historyBudget,
    totalTokens: result.totalTokens,
    historyTokens: result.historyTokens,
    itemCount: result.items.length,
    foldedItems: (base?.counts.summarized ?? 0) + foldedNow(result.folds),
    createdAt: now,
    summary,
  };
  const changed = base === null || result.folds.size > 0 ? undefined : (result.changedPositions ?? inPlaceChanges(base.commit.items, result.items));
  const counts =
    base !== null && changed !== undefined ? carryStates(base.counts, base.commit.items, result.items, changed) : { ...countStates(result.items), summarized: meta.foldedItems };
  const message = commitMessage({ ...meta, counts, merged, notes });
  const tools = await nextCommitTools(core.git, s.name, s, base?.commit, inputs);
  const written = new Map<string, string>();
  const onFoldTree = (key: string, tree: string): void => void written.set(key, tree);
  const stored = await writeStoredCommit(core.git, { base, items: result.items, folds: result.folds, changed, counts, origins, meta, parents, message, onFoldTree, ...(tools === undefined ? {} : { tools }) });
  remember(core, stored);
  s.foldCache.retain(stored.foldTrees, madeFolds(result.folds, written, trees));
  return { stored, head: rec.head, isNew: true, indexed };
}

/** The fold trees a commit wrote (`written`: summary key → tree oid), each with its items and the trees of the summaries among them. */
function madeFolds(folds: ReadonlyMap<string, readonly ContextItem[]>, written: ReadonlyMap<string, string>, trees: ReadonlyMap<string, string>): Map<string, CachedFold> {
  const made = new Map<string, CachedFold>();
  for (const [key, items] of folds) {
    const tree = written.get(key);
    if (tree === undefined) continue;
    const under = new Map<string, string>();
    for (const it of items) {
      const t = it.folded === undefined ? undefined : (written.get(it.key) ?? trees.get(it.key));
      if (t !== undefined) under.set(it.key, t);
    }
    made.set(tree, { items, trees: under });
  }
  return made;
}

/** Items that became `summarized` on this run: every list of the run's folds (a summary absorbed on it included). */
function foldedNow(folds: ReadonlyMap<string, readonly ContextItem[]>): number {
  let n = 0;
  for (const list of folds.values()) n += list.length;
  return n;
}

/** The nodes on the branch above `node` (its predecessors up to the root) and their tool calls. */
async function branchNodes(dag: SessionDag, node: Node): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let id = node.predecessor; id !== undefined; ) {
    const n = await dag.getNode(id);
    if (n === undefined) break;
    ids.add(n.id);
    if (n.role === 'assistant') for (const callee of await dag.calleesOf(n.id)) ids.add(callee);
    id = n.predecessor;
  }
  return ids;
}

/**
 * The ContextCommit of the session's head ({@link buildLatestCommit}); a new one is recorded in the commit index
 * (one DAG commit) and the session's context ref is moved to it (compare-and-swap each). The session's DAG ref is
 * read once (one snapshot for the call).
 */
export async function ensureLatestCommit(core: RepoCore, s: SessionSettings, snapshot: DagSnapshot = new Map()): Promise<StoredCommit> {
  const contextBefore = await readRef(core.git, contextRef(s.name));
  const built = await buildLatestCommit(core, s, storedDag(core.store, s.name, snapshot));
  await moveContext(core, s.name, contextBefore, built.stored.commit.id, async () => {
    if (built.isNew) await indexWrite(s.name, 'commit', () => core.store.writeWithIndex(s.name, null, [indexEntry(built)], s.lastTime, snapshot));
  });
  return built.stored;
}

/** The commit index entry of a new commit, expecting what the head's entry held when it was read. */
export function indexEntry(built: LatestCommit): CommitIndexEntry {
  return { node: built.head, commit: built.stored.commit.id, ...(built.indexed === undefined ? {} : { expected: built.indexed }) };
}

/** A DAG write that records commits: a lost race on the session record or on an index entry becomes {@link CommitConflictError}. */
export async function indexWrite(session: string, what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await dagWrite(session, what, fn);
  } catch (err) {
    if (err instanceof RefConflictError && err.data['reason'] === 'moved') throw new CommitConflictError(session, what, err);
    throw err;
  }
}

/**
 * Runs `record` (the DAG write that records the commit) and moves the session's context ref from `before` to `id`
 * (compare-and-swap) after it, unless it is there already; the ref's value is written while `record` runs.
 */
export async function moveContext(core: RepoCore, session: string, before: string | null, id: string, record: () => Promise<void>): Promise<void> {
  if (before === id) return record();
  return swapRefAfter(core, session, contextRef(session), before, id, record);
}
