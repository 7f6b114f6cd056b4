import { canonicalJson, validateNodeId } from '@ctxgit/dag';
import { readBlob } from '../../../git/read-blob.js';
import { readCommitObject } from '../../../git/read-commit-object.js';
import { listRefs } from '../../../git/list-refs.js';
import { readRef } from '../../../git/read-ref.js';
import { SESSIONS_PREFIX, sessionOfRef } from '../../../store/refs.js';
import { shard } from '../../../store/internal/dag-layout.js';
import type { CommitStart } from './commit-start.js';
import type { Verifier } from './verifier.js';
import { guard, isRecord, parseJson, report } from './verifier.js';
import { entryOf, leavesAt } from './walk-tree.js';

/** A DAG node as verified: its blob oid and parsed content. */
export interface DagNode {
  readonly oid: string;
  readonly id: string;
  readonly session: string;
  readonly seq: number;
  readonly role: string;
  readonly predecessor?: string;
  readonly caller?: string;
  readonly reads: readonly string[];
  readonly metadata?: Record<string, unknown>;
}

/** A session record of the DAG. */
export interface DagSession {
  readonly head: string | null;
  readonly version: number;
  readonly nextSeq: number;
  readonly forkedFrom?: { readonly session: string; readonly node: string };
}

/** One session's DAG ref as read. */
export interface DagRef {
  readonly ref: string;
  readonly head: string;
  /** Commits of the first-parent history, newest first (a fork's continues into its source's). */
  readonly history: readonly string[];
}

/** What the sessions' DAGs hold, as far as they could be read. */
export interface DagModel {
  /** Every node of every session's DAG tree (a node a fork inherited is the same blob in both). */
  readonly nodes: ReadonlyMap<string, DagNode>;
  readonly sessions: ReadonlyMap<string, DagSession>;
  /** Per session: its DAG ref. */
  readonly refs: ReadonlyMap<string, DagRef>;
  /** Where the ContextCommit walk starts from the DAG: every commit-index entry, and every indexed commit a DAG commit names as a parent. */
  readonly starts: readonly CommitStart[];
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const SEQ_DIGITS = 16;

function validId(id: unknown): id is string {
  try {
    validateNodeId(id);
    return true;
  } catch {
    return false;
  }
}

async function readJsonBlob(v: Verifier, path: string, oid: string): Promise<{ value: unknown; text: string } | undefined> {
  const bytes = await guard(v, path, 'unreadable blob', () => readBlob(v.git, oid));
  if (bytes === undefined) return undefined;
  const parsed = parseJson(bytes);
  if ('error' in parsed) {
    report(v, 'E_VERIFY_DAG_NODE_INVALID', path, `not UTF-8 JSON: ${parsed.error}`);
    return undefined;
  }
  return { value: parsed.value, text: Buffer.from(bytes).toString('utf8') };
}

function parseNode(v: Verifier, path: string, oid: string, value: unknown, text: string): DagNode | undefined {
  const bad = (why: string): undefined => (report(v, 'E_VERIFY_DAG_NODE_INVALID', path, why), undefined);
  if (!isRecord(value)) return bad('not a JSON object');
  const { id, session, seq, role, output, createdAt, predecessor, caller, reads, metadata } = value;
  if (!validId(id)) return bad(`bad id ${JSON.stringify(id)}`);
  if (typeof session !== 'string' || session === '') return bad('bad session');
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return bad('bad seq');
  if (typeof role !== 'string' || !ROLES.has(role)) return bad(`unknown role ${JSON.stringify(role)}`);
  if (typeof output !== 'string') return bad('output is not a string');
  if (typeof createdAt !== 'number') return bad('createdAt is not a number');
  if (predecessor !== undefined && !validId(predecessor)) return bad('bad predecessor');
  if (caller !== undefined && !validId(caller)) return bad('bad caller');
  if (predecessor !== undefined && caller !== undefined) return bad('has both predecessor and caller');
  if (reads !== undefined && (!Array.isArray(reads) || !reads.every(validId))) return bad('bad reads');
  if (metadata !== undefined && !isRecord(metadata)) return bad('metadata is not an object');
  if (canonicalJson(value) !== text) report(v, 'E_VERIFY_DAG_NODE_NOT_CANONICAL', path, 'the blob is not the canonical JSON of the node it holds');
  return {
    oid,
    id,
    session,
    seq,
    role,
    ...(predecessor === undefined ? {} : { predecessor: predecessor as string }),
    ...(caller === undefined ? {} : { caller: caller as string }),
    reads: (reads ?? []) as string[],
    ...(metadata === undefined ? {} : { metadata: metadata as Record<string, unknown> }),
  };
}

async function readNodes(v: Verifier, W: string, tree: string): Promise<Map<string, DagNode>> {
  const nodes = new Map<string, DagNode>();
  const dir = await entryOf(v, W, tree, 'nodes');
  if (dir === undefined) return nodes;
  for (const leaf of await leavesAt(v, W, dir.oid, ['nodes'], 3)) {
    const path = `${W}:${leaf.path.join('/')}`;
    const name = leaf.path[3] as string;
    const parsed = await readJsonBlob(v, path, leaf.oid);
    if (parsed === undefined) continue;
    const node = parseNode(v, path, leaf.oid, parsed.value, parsed.text);
    if (node === undefined) continue;
    const h = shard(node.id).join('');
    if (name !== `${node.id}.json` || leaf.path[1] !== h.slice(0, 2) || leaf.path[2] !== h.slice(2, 4)) {
      report(v, 'E_VERIFY_DAG_NODE_PATH_MISMATCH', path, `holds node ${node.id}, whose path is nodes/${h.slice(0, 2)}/${h.slice(2, 4)}/${node.id}.json`);
      continue;
    }
    v.counts.nodes++;
    nodes.set(node.id, node);
  }
  return nodes;
}

/** Dangling edges and cycles among `own`, following edges through `nodes` (own copies first). */
function checkEdges(v: Verifier, W: string, own: ReadonlyMap<string, DagNode>, nodes: ReadonlyMap<string, DagNode>): void {
  for (const n of own.values()) {
    const path = `${W}:node ${n.id}`;
    for (const [what, target] of [['predecessor', n.predecessor], ['caller', n.caller], ...n.reads.map((r) => ['reads', r] as const)] as const) {
      if (target !== undefined && !nodes.has(target)) report(v, 'E_VERIFY_DAG_EDGE_DANGLING', path, `${what} ${target} is not in the DAG`);
    }
  }
  // iterative DFS over predecessor, caller and reads edges: 1 = on the stack, 2 = done
  const color = new Map<string, number>();
  for (const start of own.keys()) {
    if (color.has(start)) continue;
    const stack: { id: string; next: number }[] = [{ id: start, next: 0 }];
    color.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { id: string; next: number };
      const n = nodes.get(top.id) as DagNode;
      const edges = [n.predecessor, n.caller, ...n.reads].filter((x): x is string => x !== undefined && nodes.has(x));
      if (top.next >= edges.length) {
        color.set(top.id, 2);
        stack.pop();
        continue;
      }
      const to = edges[top.next++] as string;
      const c = color.get(to);
      if (c === 1) {
        const from = stack.findIndex((f) => f.id === to);
        report(v, 'E_VERIFY_DAG_CYCLE', `${W}:node ${to}`, `edges form a cycle: ${[...stack.slice(from).map((f) => f.id), to].join(' -> ')}`);
      } else if (c === undefined) {
        color.set(to, 1);
        stack.push({ id: to, next: 0 });
      }
    }
  }
}

/** Checks one index (children, callees or roots): entries match the nodes exactly, both ways. */
function checkIndex(v: Verifier, W: string, kind: string, found: Map<string, string>, expected: Map<string, DagNode>): void {
  for (const [key, path] of found) {
    if (!expected.has(key)) report(v, 'E_VERIFY_DAG_INDEX_MISMATCH', path, `${kind} index entry without a matching node`);
  }
  for (const [key, n] of expected) if (!found.has(key)) report(v, 'E_VERIFY_DAG_INDEX_MISMATCH', `${W}:${kind}`, `node ${n.id} is missing from the ${kind} index (${key})`);
}

async function checkEdgeIndex(v: Verifier, W: string, tree: string, kind: 'children' | 'callees', nodes: ReadonlyMap<string, DagNode>): Promise<void> {
  const found = new Map<string, string>();
  const dir = await entryOf(v, W, tree, kind);
  if (dir !== undefined) {
    for (const leaf of await leavesAt(v, W, dir.oid, [kind], 4)) {
      const path = `${W}:${leaf.path.join('/')}`;
      const parent = leaf.path[3] as string;
      const name = leaf.path[4] as string;
      const id = name.slice(SEQ_DIGITS + 1);
      const n = nodes.get(id);
      const h = shard(parent).join('');
      const edge = kind === 'children' ? n?.predecessor : n?.caller;
      if (n === undefined || edge !== parent || leaf.oid !== n.oid || name !== `${String(n.seq).padStart(SEQ_DIGITS, '0')}.${id}` || leaf.path[1] !== h.slice(0, 2) || leaf.path[2] !== h.slice(2, 4)) {
        report(v, 'E_VERIFY_DAG_INDEX_MISMATCH', path, `${kind} entry does not match node ${id}`);
        continue;
      }
      found.set(`${parent}>${id}`, path);
    }
  }
  const expected = new Map<string, DagNode>();
  for (const n of nodes.values()) {
    const edge = kind === 'children' ? n.predecessor : n.caller;
    if (edge !== undefined) expected.set(`${edge}>${n.id}`, n);
  }
  checkIndex(v, W, kind, found, expected);
}

function parseSession(v: Verifier, path: string, name: string, value: unknown, nodes: ReadonlyMap<string, DagNode>): DagSession | undefined {
  const bad = (why: string): undefined => (report(v, 'E_VERIFY_DAG_SESSION_INVALID', path, why), undefined);
  if (!isRecord(value)) return bad('not a JSON object');
  const { id, head, nextSeq, version, agentRunning, forkedFrom } = value;
  if (id !== name) return bad(`record of ${JSON.stringify(id)} stored under the name ${JSON.stringify(name)}`);
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) return bad('bad version');
  if (typeof nextSeq !== 'number' || !Number.isSafeInteger(nextSeq) || nextSeq < 0) return bad('bad nextSeq');
  if (typeof agentRunning !== 'boolean') return bad('bad agentRunning');
  if (head !== null && typeof head !== 'string') return bad('bad head');
  if (typeof head === 'string') {
    const h = nodes.get(head);
    if (h === undefined) return bad(`head ${head} is not in the DAG`);
    if (h.role === 'tool') return bad(`head ${head} is a tool node`);
  }
  let fork: DagSession['forkedFrom'];
  if (forkedFrom !== undefined) {
    if (!isRecord(forkedFrom) || typeof forkedFrom['session'] !== 'string' || typeof forkedFrom['node'] !== 'string') return bad('bad forkedFrom');
    if (!nodes.has(forkedFrom['node'])) return bad(`forkedFrom node ${forkedFrom['node']} is not in the DAG`);
    fork = { session: forkedFrom['session'], node: forkedFrom['node'] };
  }
  for (const n of nodes.values()) if (n.session === name && n.seq >= nextSeq) return bad(`node ${n.id} has seq ${n.seq}, not below nextSeq ${nextSeq}`);
  return { head: head as string | null, version, nextSeq, ...(fork === undefined ? {} : { forkedFrom: fork }) };
}

/** The session record at the root of a session's DAG tree, and its roots index. */
async function readSession(v: Verifier, W: string, name: string, tree: string, nodes: ReadonlyMap<string, DagNode>): Promise<DagSession | undefined> {
  const path = `${W}:session.json`;
  const entry = await entryOf(v, W, tree, 'session.json');
  let rec: DagSession | undefined;
  if (entry === undefined || entry.type !== 'blob') report(v, 'E_VERIFY_DAG_SESSION_INVALID', path, 'the session DAG has no session.json');
  else {
    const parsed = await readJsonBlob(v, path, entry.oid);
    if (parsed !== undefined) {
      if (canonicalJson(parsed.value) !== parsed.text) report(v, 'E_VERIFY_DAG_NODE_NOT_CANONICAL', path, 'the session record is not canonical JSON');
      rec = parseSession(v, path, name, parsed.value, nodes);
    }
  }
  const roots = new Map<string, string>();
  const dir = await entryOf(v, W, tree, 'roots');
  if (dir !== undefined) {
    for (const leaf of await leavesAt(v, W, dir.oid, ['roots'], 1)) {
      const leafPath = `${W}:${leaf.path.join('/')}`;
      const id = (leaf.path[1] as string).slice(SEQ_DIGITS + 1);
      const n = nodes.get(id);
      if (n === undefined || n.predecessor !== undefined || n.caller !== undefined || n.session !== name || n.oid !== leaf.oid || leaf.path[1] !== `${String(n.seq).padStart(SEQ_DIGITS, '0')}.${id}`) {
        report(v, 'E_VERIFY_DAG_INDEX_MISMATCH', leafPath, `roots entry does not match node ${id}`);
        continue;
      }
      roots.set(`${name}>${id}`, leafPath);
    }
  }
  const expected = new Map<string, DagNode>();
  for (const n of nodes.values()) if (n.session === name && n.predecessor === undefined && n.caller === undefined) expected.set(`${name}>${n.id}`, n);
  checkIndex(v, W, 'roots', roots, expected);
  return rec;
}

/** The commit index of a session's DAG tree: `commits/<h0h1>/<h2h3>/<nodeId>` blobs holding a commit oid. */
async function readCommitIndex(v: Verifier, W: string, tree: string, nodes: ReadonlyMap<string, DagNode>): Promise<{ ref: string; oid: string; headNodeId: string }[]> {
  const out: { ref: string; oid: string; headNodeId: string }[] = [];
  const dir = await entryOf(v, W, tree, 'commits');
  if (dir === undefined) return out;
  for (const leaf of await leavesAt(v, W, dir.oid, ['commits'], 3)) {
    const path = `${W}:${leaf.path.join('/')}`;
    const id = leaf.path[3] as string;
    const h = shard(id).join('');
    const bytes = await guard(v, path, 'unreadable blob', () => readBlob(v.git, leaf.oid));
    const text = bytes === undefined ? '' : Buffer.from(bytes).toString('utf8');
    if (!/^[0-9a-f]{40}\n$/u.test(text) || leaf.path[1] !== h.slice(0, 2) || leaf.path[2] !== h.slice(2, 4)) {
      if (bytes !== undefined) report(v, 'E_VERIFY_REF_MISMATCH', path, `not a commit index entry (a commit oid at commits/${h.slice(0, 2)}/${h.slice(2, 4)}/${id})`);
      continue;
    }
    const n = nodes.get(id);
    if (n === undefined || n.role === 'tool') report(v, 'E_VERIFY_REF_MISMATCH', path, `indexes node ${id}, which is ${n === undefined ? 'not in this DAG' : 'a tool node'}`);
    out.push({ ref: path, oid: text.trim(), headNodeId: id });
  }
  return out;
}

/** Walks a DAG ref's first-parent history; the other parents are the ContextCommits its commit index names. */
async function readHistory(v: Verifier, ref: string, head: string, starts: CommitStart[]): Promise<{ history: string[]; tree: string | null }> {
  const history: string[] = [];
  let tree: string | null = null;
  const seen = new Set<string>();
  for (let oid: string | undefined = head; oid !== undefined; ) {
    if (seen.has(oid)) {
      report(v, 'E_VERIFY_DAG_HISTORY_BROKEN', `${ref}@${oid}`, 'the DAG history loops');
      break;
    }
    seen.add(oid);
    const at: string = oid;
    const c = await guard(v, `${ref}@${at}`, 'unreadable DAG commit', () => readCommitObject(v.git, at));
    if (c === undefined) break;
    for (const extra of c.parents.slice(1)) starts.push({ ref: `${ref}@${at}`, oid: extra });
    history.push(at);
    v.counts.dagCommits++;
    tree ??= c.tree;
    oid = c.parents[0];
  }
  return { history, tree };
}

/**
 * Reads and checks every session's DAG (`refs/ctxgit/sessions/<s>/dag`): history, nodes, edges, acyclicity,
 * indexes, the session record, the commit index.
 */
export async function checkDag(v: Verifier): Promise<DagModel> {
  const nodes = new Map<string, DagNode>();
  const sessions = new Map<string, DagSession>();
  const refs = new Map<string, DagRef>();
  const starts: CommitStart[] = [];
  const indexed: { session: string; ref: string; oid: string; headNodeId: string }[] = [];
  const trees: { ref: string; own: Map<string, DagNode> }[] = [];
  const all = (await guard(v, SESSIONS_PREFIX, 'cannot list refs', () => listRefs(v.git, SESSIONS_PREFIX))) ?? [];
  for (const ref of all) {
    const name = sessionOfRef(ref, 'dag');
    if (name === undefined) continue;
    const head = await guard(v, ref, 'unreadable ref', () => readRef(v.git, ref));
    if (head === undefined || head === null) continue;
    const { history, tree } = await readHistory(v, ref, head, starts);
    refs.set(name, { ref, head, history });
    if (tree === null) continue;
    const own = await readNodes(v, ref, tree);
    trees.push({ ref, own });
    for (const n of own.values()) {
      const known = nodes.get(n.id);
      if (known !== undefined && known.oid !== n.oid) report(v, 'E_VERIFY_DAG_REWRITTEN', `${ref}:node ${n.id}`, `node ${n.id} is ${n.oid} here and ${known.oid} in another session's DAG`);
      if (known === undefined) nodes.set(n.id, n);
    }
    await checkEdgeIndex(v, ref, tree, 'children', own);
    await checkEdgeIndex(v, ref, tree, 'callees', own);
    const rec = await readSession(v, ref, name, tree, own);
    if (rec !== undefined) sessions.set(name, rec);
    for (const e of await readCommitIndex(v, ref, tree, own)) indexed.push({ session: name, ...e });
  }
  v.counts.sessions = sessions.size;
  // each tree on its own (its copy of a node is the one its edges follow), edges into other sessions' trees resolved
  for (const t of trees) checkEdges(v, t.ref, t.own, new Map([...nodes, ...t.own]));
  for (const n of nodes.values()) {
    if (!sessions.has(n.session)) report(v, 'E_VERIFY_DAG_SESSION_INVALID', `dag:node ${n.id}`, `appended by session ${JSON.stringify(n.session)}, which has no DAG record`);
  }
  // an index entry a fork inherited names a commit of the session it was forked from (or of that one's source)
  const lineage = (name: string): string[] => {
    const out: string[] = [];
    for (let s: string | undefined = name; s !== undefined && !out.includes(s); s = sessions.get(s)?.forkedFrom?.session) out.push(s);
    return out;
  };
  for (const e of indexed) starts.push({ ref: e.ref, oid: e.oid, expect: { sessions: lineage(e.session), headNodeId: e.headNodeId } });
  return { nodes, sessions, refs, starts };
}

/** The node blob oids and the session version of a session's DAG at an earlier commit (for the append-only check). */
export async function snapshotAt(v: Verifier, commit: string): Promise<{ session: string | undefined; nodes: Map<string, string>; version: number | undefined } | undefined> {
  const c = await guard(v, `previous ${commit}`, 'unreadable previous DAG commit', () => readCommitObject(v.git, commit));
  if (c === undefined) return undefined;
  const nodes = new Map<string, string>();
  const nodesDir = await entryOf(v, commit, c.tree, 'nodes');
  if (nodesDir !== undefined) for (const leaf of await leavesAt(v, commit, nodesDir.oid, ['nodes'], 3)) nodes.set((leaf.path[3] as string).replace(/\.json$/u, ''), leaf.oid);
  const record = await entryOf(v, commit, c.tree, 'session.json');
  const bytes = record === undefined ? undefined : await guard(v, `${commit}:session.json`, 'unreadable blob', () => readBlob(v.git, record.oid));
  const parsed = bytes === undefined ? undefined : parseJson(bytes);
  const value = parsed !== undefined && 'value' in parsed && isRecord(parsed.value) ? parsed.value : undefined;
  return {
    session: typeof value?.['id'] === 'string' ? value['id'] : undefined,
    nodes,
    version: typeof value?.['version'] === 'number' ? value['version'] : undefined,
  };
}
