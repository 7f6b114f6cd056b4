import { canonicalJson } from '../../canonical-json.js';
import { META_FILE, parseCommitMeta } from '../../commit-meta.js';
import { readBlob } from '../../git/read-blob.js';
import { readCommitObject } from '../../git/read-commit-object.js';
import { ITEMS_DIR, pathSafeKey } from '../../layout/item-path.js';
import type { DagModel } from './check-dag.js';
import type { CommitStart } from './commit-start.js';
import type { Verifier } from './verifier.js';
import { blobOid, guard, isRecord, parseJson, report } from './verifier.js';
import { entryOf, leavesAt } from './walk-tree.js';

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
  const items = new Map<string, CheckedItem | null>();
  const origins = new Map<string, string | null>();
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
    const parents = await checkOne(v, dag, oid, items, origins);
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

async function checkOne(v: Verifier, dag: DagModel, oid: string, cache: Map<string, CheckedItem | null>, origins: Map<string, string | null>): Promise<readonly string[]> {
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
  const list: CheckedItem[] = [];
  const dir = await entryOf(v, oid, c.tree, ITEMS_DIR);
  const leaves = dir === undefined ? [] : await leavesAt(v, oid, dir.oid, [ITEMS_DIR], 3);
  for (const leaf of leaves) {
    const path = `${oid}:${leaf.path.join('/')}`;
    const name = leaf.path[3] as string;
    const m = FILE.exec(name);
    const orderKey = m?.[1] ?? '';
    if (m === null || leaf.path[1] !== orderKey.slice(0, 5) || leaf.path[2] !== orderKey.slice(5, 7)) {
      report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', path, 'not an item path items/<5 digits>/<2 digits>/<order key>-<key>.json');
      continue;
    }
    let item = cache.get(leaf.oid);
    if (item === undefined) {
      item = null;
      v.counts.items++;
      const bytes = await guard(v, path, 'unreadable item blob', () => readBlob(v.git, leaf.oid));
      const parsed = bytes === undefined ? undefined : parseJson(bytes);
      if (parsed !== undefined && 'error' in parsed) report(v, 'E_VERIFY_ITEM_INVALID', path, `not UTF-8 JSON: ${parsed.error}`);
      if (parsed !== undefined && 'value' in parsed) {
        const problem = itemProblem(parsed.value);
        if (problem !== undefined) report(v, 'E_VERIFY_ITEM_INVALID', path, problem);
        else {
          const again = blobOid(Buffer.from(`${canonicalJson(parsed.value)}\n`, 'utf8'));
          if (again !== leaf.oid) report(v, 'E_VERIFY_ITEM_HASH_MISMATCH', path, `re-serialized canonically the item hashes to ${again}, the tree says ${leaf.oid}`);
          item = parsed.value as unknown as CheckedItem;
        }
      }
      cache.set(leaf.oid, item);
    }
    if (item === null) continue;
    if (pathSafeKey(item.key) !== m[2]) report(v, 'E_VERIFY_ITEM_PATH_MISMATCH', path, `holds item ${JSON.stringify(item.key)}, stored under another key`);
    list.push(item);
  }
  const byKey = new Map<string, CheckedItem>();
  for (const it of list) {
    if (byKey.has(it.key)) report(v, 'E_VERIFY_ITEM_INVALID', oid, `item key ${JSON.stringify(it.key)} appears twice`);
    byKey.set(it.key, it);
  }
  if (meta !== undefined && typeof meta !== 'string') {
    if (meta.itemCount !== leaves.length) report(v, 'E_VERIFY_ITEM_COUNT_MISMATCH', `${oid}:${META_FILE}`, `meta.json counts ${meta.itemCount} items, the tree holds ${leaves.length}`);
    if (!dag.nodes.has(meta.headNodeId)) report(v, 'E_VERIFY_HEAD_NODE_MISSING', `${oid}:${META_FILE}`, `head node ${meta.headNodeId} is not in the DAG`);
  }
  const folds = new Map<string, Set<string>>();
  for (const it of list) if (it.folded !== undefined) folds.set(it.key, new Set(it.folded));
  for (const it of list) {
    const path = `${oid}:item ${it.key}`;
    // a summary (visible, or absorbed by a later one) and an attached copy of a source's summary have no DAG node of their own
    const attachedSummary = it.attachedFrom !== undefined && !dag.nodes.has(it.sourceNodeId);
    const summary = it.state === 'summary' || it.folded !== undefined;
    if (!summary && it.origin === undefined && !attachedSummary) report(v, 'E_VERIFY_ORIGIN_MISSING', path, 'an item from a DAG node without the oid of its original');
    if (it.origin !== undefined) await checkOrigin(v, dag, origins, path, it);
    const into = byKey.get(it.mergedInto ?? '');
    if (it.state === 'summarized' && (into === undefined || (into.state !== 'summary' && into.folded === undefined) || folds.get(into.key)?.has(it.key) === false)) {
      report(v, 'E_VERIFY_SUMMARY_ORIGINAL_MISSING', path, `summarized, but its summary ${String(it.mergedInto)} is not in the commit`);
    }
    if (!summary) continue;
    if (it.state === 'summary') v.counts.summaries++;
    const folded = it.folded ?? list.filter((x) => x.mergedInto === it.key).map((x) => x.key);
    if (folded.length === 0) report(v, 'E_VERIFY_SUMMARY_ORIGINAL_MISSING', path, 'a summary that folds nothing');
    for (const k of folded) {
      const orig = byKey.get(k);
      if (orig === undefined || orig.state !== 'summarized' || orig.mergedInto !== it.key || (orig.origin === undefined && orig.folded === undefined)) {
        report(v, 'E_VERIFY_SUMMARY_ORIGINAL_MISSING', path, `folded item ${k} is ${orig === undefined ? 'not in the commit' : `not a summarized item of this summary with an origin`}`);
      }
    }
  }
  if (c.parents.length > 1) {
    const merged = new Set<string>();
    for (const it of list) {
      const pointer = it.attachedFrom === undefined ? undefined : dag.nodes.get(it.attachedFrom);
      const attach = pointer?.metadata?.['attach'];
      if (pointer?.metadata?.['merge'] !== undefined && isRecord(attach) && typeof attach['commit'] === 'string') merged.add(attach['commit']);
    }
    for (const p of c.parents.slice(1)) if (!merged.has(p)) report(v, 'E_VERIFY_UNEXPLAINED_PARENT', oid, `parent ${p} is not the commit of a merged peer (multi-parent commits come only from merge)`);
  }
  return c.parents;
}
