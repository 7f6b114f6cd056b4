import { META_FILE, parseCommitMeta } from '../../../store/commit-meta.js';
import { hashObject } from '../../../git/object-hash.js';
import { readBlob } from '../../../git/read-blob.js';
import { readTree } from '../../../git/read-tree.js';
import { recordBlobText } from '../../../store/layout/item-blob.js';
import { readCommitObject } from '../../../git/read-commit-object.js';
import { ITEMS_DIR, pathSafeKey } from '../../../store/layout/item-path.js';
import type { DagModel } from './check-dag.js';
import type { CommitStart } from './commit-start.js';
import type { Verifier } from './verifier.js';
import { guard, isRecord, parseJson, report } from './verifier.js';
import { entryOf, treesAt } from './walk-tree.js';

interface CheckedItem {
  readonly key: string;
  readonly state: string;
  readonly sourceNodeId: string;
  readonly origin?: string;
  readonly attachedFrom?: string;
  readonly mergedInto?: string;
  readonly folded?: readonly string[];
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const STATES = new Set(['full', 'aged', 'cleared', 'summarized', 'summary']);
const FILE = /^(\d{9}(?:\d*[1-9])?)-(.+)\.json$/u;
const FOLDED = /^(\d{9})-(.+)\.json$/u;
const OID = /^[0-9a-f]{40}$/u;

function itemProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not a JSON object';
  const it = value;
  if (typeof it['key'] !== 'string' || it['key'] === '') return 'bad key';
  if (typeof it['sourceNodeId'] !== 'string') return 'bad sourceNodeId';
  if (typeof it['role'] !== 'string' || !ROLES.has(it['role'])) return 'bad role';
  if (typeof it['state'] !== 'string' || !STATES.has(it['state'])) return 'bad state';
  if (typeof it['locked'] !== 'boolean') return 'bad locked';
  if (!Array.isArray(it['blocks']) || !it['blocks'].every(isRecord)) return 'bad blocks';
  if (typeof it['tokens'] !== 'number' || !Number.isSafeInteger(it['tokens']) || it['tokens'] < 0) return 'bad tokens';
  if (typeof it['reason'] !== 'string') return 'bad reason';
  if (typeof it['touchedAt'] !== 'number') return 'bad touchedAt';
  if (it['origin'] !== undefined && (typeof it['origin'] !== 'string' || !OID.test(it['origin']))) return 'bad origin';
  if (it['folded'] !== undefined && (!Array.isArray(it['folded']) || !it['folded'].every((k) => typeof k === 'string'))) return 'bad folded';
  return undefined;
}

/** Walks every ContextCommit reachable from the starts (all parents) and checks each one end to end. */
export async function checkContextCommits(v: Verifier, dag: DagModel, starts: readonly CommitStart[]): Promise<void> {
  const st: CheckState = { dag, items: new Map(), origins: new Map(), folds: new Map() };
  const seen = new Set<string>();
  const queue: string[] = [];
  for (const s of starts) {
    if (s.expect !== undefined) await checkExpectation(v, s);
    queue.push(s.oid);
  }
  while (queue.length > 0) {
    const oid = queue.pop() as string;
    if (seen.has(oid)) continue;
    seen.add(oid);
    const parents = await checkOne(v, st, oid);
    queue.push(...parents);
  }
}

async function checkExpectation(v: Verifier, s: CommitStart): Promise<void> {
  const expect = s.expect as NonNullable<CommitStart['expect']>;
  const c = await guard(v, s.ref, 'unreadable commit', () => readCommitObject(v.git, s.oid));
  const meta = c === undefined ? undefined : await entryOf(v, s.oid, c.tree, META_FILE);
  const bytes = meta === undefined ? undefined : await guard(v, `${s.oid}:${META_FILE}`, 'unreadable blob', () => readBlob(v.git, meta.oid));
  const parsed = bytes === undefined ? undefined : parseCommitMeta(Buffer.from(bytes).toString('utf8'));
  if (parsed === undefined || typeof parsed === 'string') return; // reported by the walk
  if (!expect.sessions.includes(parsed.session) || parsed.headNodeId !== expect.headNodeId) {
    report(v, 'E_VERIFY_REF_MISMATCH', s.ref, `indexes node ${expect.headNodeId} of session ${expect.sessions.join(' or ')}, but its commit is of node ${parsed.headNodeId} of session ${parsed.session}`);
  }
}

async function checkOrigin(v: Verifier, dag: DagModel, origins: Map<string, string | null>, path: string, item: CheckedItem): Promise<void> {
  const origin = item.origin as string;
  let nodeId = origins.get(origin);
  if (nodeId === undefined) {
    v.counts.origins++;
    nodeId = null;
    const bytes = await guard(v, path, `origin ${origin} unreadable`, () => readBlob(v.git, origin));
    const parsed = bytes === undefined ? undefined : parseJson(bytes);
    if (parsed !== undefined && 'value' in parsed && isRecord(parsed.value) && typeof parsed.value['id'] === 'string') {
      const id = parsed.value['id'];
      if (dag.nodes.get(id)?.oid === origin) nodeId = id;
      else report(v, 'E_VERIFY_ORIGIN_MISMATCH', path, `origin ${origin} holds node ${id}, but the DAG holds ${dag.nodes.has(id) ? `a different blob (${dag.nodes.get(id)?.oid ?? ''})` : 'no such node'}`);
    } else if (bytes !== undefined) {
      report(v, 'E_VERIFY_ORIGIN_MISMATCH', path, `origin ${origin} is not a DAG node`);
    }
    origins.set(origin, nodeId);
  }
  if (nodeId !== null && nodeId !== item.sourceNodeId && nodeId !== item.attachedFrom) {
    report(v, 'E_VERIFY_ORIGIN_MISMATCH', path, `origin is node ${nodeId}, but the item comes from ${item.sourceNodeId}`);
  }
}

/** Reads and checks one item blob (cached by oid): JSON, the item shape, and the pretty canonical bytes. */
async function readItem(v: Verifier, path: string, oid: string, cache: Map<string, CheckedItem | null>): Promise<CheckedItem | null> {
  let item = cache.get(oid);
  if (item !== undefined) return item;
  item = null;
  v.counts.items++;
  const bytes = await guard(v, path, 'unreadable item blob', () => readBlob(v.git, oid));
  const parsed = bytes === undefined ? undefined : parseJson(bytes);
  if (parsed !== undefined && 'error' in parsed) report(v, 'E_VERIFY_ITEM_INVALID', path, `not UTF-8 JSON: ${parsed.error}`);
  if (parsed !== undefined && 'value' in parsed) {
    const problem = itemProblem(parsed.value);
    if (problem !== undefined) report(v, 'E_VERIFY_ITEM_INVALID', path, problem);
    else {
      const again = hashObject('blob', recordBlobText(parsed.value));
      if (again !== oid) report(v, 'E_VERIFY_ITEM_HASH_MISMATCH', path, `re-serialized canonically (pretty-printed, keys sorted) the item hashes to ${again}, the tree says ${oid}`);
      item = parsed.value as unknown as CheckedItem;
    }
  }
  cache.set(oid, item);
  return item;
}

/** What one commit check shares: the DAG, the item and origin caches, and the checked summary trees (tree:summary → keys under it). */
interface CheckState {
  readonly dag: DagModel;
  readonly items: Map<string, CheckedItem | null>;
  readonly origins: Map<string, string | null>;
  readonly folds: Map<string, readonly string[]>;
}

/** An item from a DAG node must record its original; a summary, or an attached copy of a source's summary, has none. */
async function checkSource(v: Verifier, st: CheckState, path: string, it: CheckedItem): Promise<void> {
  const attachedSummary = it.attachedFrom !== undefined && !st.dag.nodes.has(it.sourceNodeId);
  const summary = it.state === 'summary' || it.folded !== undefined;
  if (!summary && it.origin === undefined && !attachedSummary) report(v, 'E_VERIFY_ORIGIN_MISSING', path, 'an item from a DAG node without the oid of its original');
  if (it.origin !== undefined) await checkOrigin(v, st.dag, st.origins, path, it);
}

/**
 * Checks the tree of what `summary` folded: one blob per folded key, in the summary's order and named by position,
 * each the item as it was live or `summarized` into it; a folded summary has its own tree beside its blob, checked
 * the same way. Returns every key under the summary (at every depth); a tree shared with an earlier commit is checked
 * once.
 */
async function checkFolded(v: Verifier, st: CheckState, where: string, tree: string, summary: CheckedItem): Promise<readonly string[]> {
  const id = `${tree}:${summary.key}`;
  const done = st.folds.get(id);
  if (done !== undefined) return done;
  const keys: string[] = [];
  st.folds.set(id, keys);
  const entries = (await guard(v, where, 'unreadable tree', () => readTree(v.git, tree))) ?? [];
  const trees = new Map<string, string>();
  for (const e of entries) if (e.type === 'tree') trees.set(e.path, e.oid);
  const blobs = entries.filter((e) => e.type === 'blob');
  const expected = summary.folded ?? [];
  if (blobs.length !== expected.length) report(v, 'E_VERIFY_SUMMARY_ORIGINAL_MISSING', where, `the summary folds ${expected.length} items, its tree holds ${blobs.length}`);
  for (const [i, e] of blobs.entries()) {
    const path = `${where}/${e.path}`;
    const m = FOLDED.exec(e.path);
    if (m === null || Number(m[1]) !== i + 1) {
      report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', path, `not the folded item path <position ${i + 1}, 9 digits>-<key>.json`);
      continue;
    }
    const it = await readItem(v, path, e.oid, st.items);
    if (it === null) continue;
    if (pathSafeKey(it.key) !== m[2]) report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', path, `holds item ${JSON.stringify(it.key)}, stored under another key`);
    // The blob the item had in the live list, or the item as folded into this summary.
    const into = it.state === 'summarized' ? it.mergedInto === summary.key : it.mergedInto === undefined;
    if (it.key !== expected[i] || !into) {
      report(v, 'E_VERIFY_SUMMARY_ORIGINAL_MISSING', path, `folded item ${i + 1} of ${summary.key} should be ${String(expected[i])}, as it was live or summarized into it; it is ${it.key} (${it.state}, into ${String(it.mergedInto)})`);
    }
    keys.push(it.key);
    await checkSource(v, st, path, it);
    const name = e.path.slice(0, -'.json'.length);
    const sub = trees.get(name);
    trees.delete(name);
    if (it.folded === undefined) {
      if (sub !== undefined) report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', `${where}/${name}`, 'a tree beside an item that is no summary');
      continue;
    }
    if (sub === undefined) report(v, 'E_VERIFY_SUMMARY_ORIGINAL_MISSING', path, `a folded summary without the tree of what it folded`);
    else for (const k of await checkFolded(v, st, `${where}/${name}`, sub, it)) keys.push(k);
  }
  for (const name of trees.keys()) report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', `${where}/${name}`, 'a tree without a folded summary beside it');
  return keys;
}

async function checkOne(v: Verifier, st: CheckState, oid: string): Promise<readonly string[]> {
  const c = await guard(v, oid, 'unreadable ContextCommit', () => readCommitObject(v.git, oid));
  if (c === undefined) return [];
  v.counts.contextCommits++;
  const metaEntry = await entryOf(v, oid, c.tree, META_FILE);
  if (metaEntry === undefined) {
    report(v, 'E_VERIFY_NOT_CONTEXT_COMMIT', oid, `a commit without ${META_FILE} where a ContextCommit belongs`);
    return c.parents;
  }
  const metaBytes = await guard(v, `${oid}:${META_FILE}`, 'unreadable blob', () => readBlob(v.git, metaEntry.oid));
  const meta = metaBytes === undefined ? undefined : parseCommitMeta(Buffer.from(metaBytes).toString('utf8'));
  if (typeof meta === 'string') report(v, 'E_VERIFY_NOT_CONTEXT_COMMIT', `${oid}:${META_FILE}`, meta);
  // The live items: blobs three levels below items/; beside a summary's blob, the tree of what it folded.
  const list: CheckedItem[] = [];
  const foldTrees = new Map<string, { tree: string; path: string }>();
  const dir = await entryOf(v, oid, c.tree, ITEMS_DIR);
  const leafDirs = dir === undefined ? [] : await treesAt(v, oid, dir.oid, [ITEMS_DIR], 2);
  for (const leafDir of leafDirs) {
    const entries = (await guard(v, `${oid}:${leafDir.path.join('/')}`, 'unreadable tree', () => readTree(v.git, leafDir.oid))) ?? [];
    const trees = new Map<string, string>();
    for (const e of entries) if (e.type === 'tree') trees.set(e.path, e.oid);
    for (const e of entries) {
      if (e.type !== 'blob') continue;
      const path = `${oid}:${[...leafDir.path, e.path].join('/')}`;
      const m = FILE.exec(e.path);
      const orderKey = m?.[1] ?? '';
      if (m === null || leafDir.path[1] !== orderKey.slice(0, 5) || leafDir.path[2] !== orderKey.slice(5, 7)) {
        report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', path, 'not an item path items/<5 digits>/<2 digits>/<order key>-<key>.json');
        continue;
      }
      const item = await readItem(v, path, e.oid, st.items);
      if (item === null) continue;
      if (pathSafeKey(item.key) !== m[2]) report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', path, `holds item ${JSON.stringify(item.key)}, stored under another key`);
      list.push(item);
      const name = e.path.slice(0, -'.json'.length);
      const sub = trees.get(name);
      trees.delete(name);
      if (sub !== undefined) foldTrees.set(item.key, { tree: sub, path: `${oid}:${[...leafDir.path, name].join('/')}` });
    }
    for (const name of trees.keys()) report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', `${oid}:${[...leafDir.path, name].join('/')}`, 'a tree without a summary blob beside it');
  }
  // Every key once in the commit: live, or under exactly one summary (at any depth).
  const seen = new Set<string>();
  const once = (key: string, where: string): void => {
    if (seen.has(key)) report(v, 'E_VERIFY_ITEM_INVALID', where, `item key ${JSON.stringify(key)} appears twice (live, or under more than one summary)`);
    seen.add(key);
  };
  let folded = 0;
  for (const it of list) {
    const path = `${oid}:item ${it.key}`;
    once(it.key, oid);
    if (it.state === 'summarized') report(v, 'E_VERIFY_ITEM_INVALID', path, 'a summarized item in the live list (folded items live under their summary)');
    await checkSource(v, st, path, it);
    if (it.state !== 'summary' && it.folded === undefined) continue;
    v.counts.summaries++;
    if ((it.folded ?? []).length === 0) report(v, 'E_VERIFY_SUMMARY_ORIGINAL_MISSING', path, 'a summary that folds nothing');
    const at = foldTrees.get(it.key);
    if (at === undefined) {
      report(v, 'E_VERIFY_SUMMARY_ORIGINAL_MISSING', path, 'a summary without the tree of what it folded beside its blob');
      continue;
    }
    const under = await checkFolded(v, st, at.path, at.tree, it);
    for (const k of under) once(k, at.path);
    folded += under.length;
  }
  for (const [key, at] of foldTrees) if (!list.some((it) => it.key === key && it.folded !== undefined)) report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', at.path, 'a tree beside an item that is no summary');
  if (meta !== undefined && typeof meta !== 'string') {
    if (meta.itemCount !== list.length) report(v, 'E_VERIFY_ITEM_COUNT_MISMATCH', `${oid}:${META_FILE}`, `meta.json counts ${meta.itemCount} live items, the tree holds ${list.length}`);
    if (meta.foldedItems !== folded) report(v, 'E_VERIFY_ITEM_COUNT_MISMATCH', `${oid}:${META_FILE}`, `meta.json counts ${meta.foldedItems} folded items, the summaries' trees hold ${folded}`);
    if (!st.dag.nodes.has(meta.headNodeId)) report(v, 'E_VERIFY_HEAD_NODE_MISSING', `${oid}:${META_FILE}`, `head node ${meta.headNodeId} is not in the DAG`);
  }
  if (c.parents.length > 1) {
    const merged = new Set<string>();
    for (const it of list) {
      const pointer = it.attachedFrom === undefined ? undefined : st.dag.nodes.get(it.attachedFrom);
      const attach = pointer?.metadata?.['attach'];
      if (pointer?.metadata?.['merge'] !== undefined && isRecord(attach) && typeof attach['commit'] === 'string') merged.add(attach['commit']);
    }
    for (const p of c.parents.slice(1)) if (!merged.has(p)) report(v, 'E_VERIFY_UNEXPLAINED_PARENT', oid, `parent ${p} is not the commit of a merged peer (multi-parent commits come only from merge)`);
  }
  return c.parents;
}
