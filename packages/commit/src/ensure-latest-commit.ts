import type { Node } from '@ctxgit/dag';
import type { PipelineInput } from '@ctxgit/rules';
import { canonicalJson } from './canonical-json.js';
import { LAYOUT_FORMAT } from './commit-meta.js';
import type { CommitMeta } from './commit-meta.js';
import { commitMessage } from './commit-message.js';
import { EmptySessionError, UnknownSessionError } from './errors.js';
import { attachPointerOf, expandAttach } from './expand-attach.js';
import { readRef } from './git/read-ref.js';
import { writeBlob } from './git/write-blob.js';
import { contextRef, nodeCommitRef } from './refs.js';
import type { RepoCore } from './repo-core.js';
import { loadCommit, mustGetNode, remember } from './repo-core.js';
import { swapRef } from './swap-ref.js';
import type { SessionSettings } from './session-settings.js';
import type { StoredCommit } from './stored-commit.js';
import { holdsNode } from './stored-commit.js';
import { writeStoredCommit } from './write-stored-commit.js';
import { inPlaceChanges } from './layout/in-place-changes.js';
import { carryStates, countStates } from './layout/state-counts.js';
import type { PinRecord } from './pins/pin-record.js';
import { pinRecordOf } from './pins/pin-record.js';
import { runTurnPipeline } from './turn-pipeline.js';
import { nextCommitTools } from './tools/next-commit-tools.js';

/** The nearest index entry for `node`: the session's own, else the one of the session that appended the node. */
async function lookupIndex(core: RepoCore, session: string, node: Node): Promise<{ oid: string; own: boolean } | undefined> {
  const own = await readRef(core.git, nodeCommitRef(session, node.id));
  if (own !== null) return { oid: own, own: true };
  if (node.session === session) return undefined;
  const other = await readRef(core.git, nodeCommitRef(node.session, node.id));
  return other === null ? undefined : { oid: other, own: false };
}

/**
 * The ContextCommit of the session's head: found through the node index when the head has one that holds
 * every node of its branch, else written from the nearest commit on the head's ancestor chain (its items, plus
 * the branch's new nodes as `full` items and attach expansions, through the rule pipeline). Objects are
 * written first, then the index ref, then the session's context ref (both compare-and-swap).
 */
export async function ensureLatestCommit(core: RepoCore, s: SessionSettings): Promise<StoredCommit> {
  const rec = await core.store.getSession(s.name);
  if (rec === undefined) throw new UnknownSessionError(s.name);
  if (rec.head === null) throw new EmptySessionError(s.name);
  const contextBefore = await readRef(core.git, contextRef(s.name));
  const headRef = nodeCommitRef(s.name, rec.head);
  const chain: Node[] = [];
  let node = await mustGetNode(core, rec.head);
  let hit: { oid: string; own: boolean } | undefined;
  for (;;) {
    hit = await lookupIndex(core, s.name, node);
    if (hit !== undefined) break;
    chain.push(node);
    if (node.predecessor === undefined) break;
    node = await mustGetNode(core, node.predecessor);
  }
  const base = hit === undefined ? null : await loadCommit(core, hit.oid);
  const taken = new Set<string>();
  const covered = (id: string): boolean => taken.has(id) || (base !== null && holdsNode(base, id));
  const fresh: Node[] = [];
  const take = async (n: Node): Promise<void> => {
    if (!covered(n.id)) {
      taken.add(n.id);
      fresh.push(n);
    }
    if (n.role !== 'assistant') return;
    for (const id of await core.store.calleesOf(n.id)) {
      if (covered(id)) continue;
      taken.add(id);
      fresh.push(await mustGetNode(core, id));
    }
  };
  // A pin record is not an item: the commit of its node applied it already.
  if (base !== null && pinRecordOf(node) === undefined) await take(node);
  for (let i = chain.length - 1; i >= 0; i--) await take(chain[i] as Node);
  if (base !== null && fresh.length === 0) {
    if (contextBefore !== base.commit.id) await swapRef(core, s.name, contextRef(s.name), contextBefore, base.commit.id);
    return base;
  }
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
    const expansion = await expandAttach(core, n, pointer);
    inputs.push(...expansion.items);
    for (const [k, v] of expansion.origins) origins.set(k, v);
    if (pointer.merge !== undefined && expansion.source !== undefined) {
      const id = expansion.source.commit.id;
      if (!parents.includes(id)) parents.push(id);
      merged.push({ session: pointer.source.session, commit: id });
    }
  }
  const now = s.clock();
  const { result, notes } = await runTurnPipeline(core.store, base?.commit.items ?? [], inputs, pins, s, now);
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
    createdAt: now,
    summary,
  };
  const changed = base === null ? undefined : (result.changedPositions ?? inPlaceChanges(base.commit.items, result.items));
  const counts = base !== null && changed !== undefined ? carryStates(base.counts, base.commit.items, result.items, changed) : countStates(result.items);
  const message = commitMessage({ ...meta, counts, merged, notes });
  const tools = await nextCommitTools(core.git, s.name, s, base?.commit, inputs);
  const stored = await writeStoredCommit(core.git, { base, items: result.items, changed, counts, origins, meta, parents, message, ...(tools === undefined ? {} : { tools }) });
  remember(core, stored);
  const indexBefore = hit !== undefined && hit.own && chain.length === 0 ? hit.oid : null;
  await swapRef(core, s.name, headRef, indexBefore, stored.commit.id);
  await swapRef(core, s.name, contextRef(s.name), contextBefore, stored.commit.id);
  return stored;
}
