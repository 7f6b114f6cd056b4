import { validateNodeId } from '@ctxgit/dag';
import { canonicalJson } from '../../canonical-json.js';
import { readBlob } from '../../git/read-blob.js';
import { readCommitObject } from '../../git/read-commit-object.js';
import { readRef } from '../../git/read-ref.js';
import { decodeSessionName, encodeSessionName } from '../../store/internal/dag-layout.js';
import type { Verifier } from './verifier.js';
import { guard, isRecord, parseJson, report, sha1Hex } from './verifier.js';
import { allLeaves, entryOf, leavesAt } from './walk-tree.js';

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

/** What the DAG holds at its ref, as far as it could be read. */
export interface DagModel {
  readonly head: string | null;
  readonly tree: string | null;
  readonly nodes: ReadonlyMap<string, DagNode>;
  readonly sessions: ReadonlyMap<string, DagSession>;
  /** Commits of the first-parent history, newest first. */
  readonly history: readonly string[];
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const SEQ_DIGITS = 16;
const W = 'dag';

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

async function readNodes(v: Verifier, tree: string): Promise<Map<string, DagNode>> {
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
    const h = sha1Hex(node.id);
    if (name !== `${node.id}.json` || leaf.path[1] !== h.slice(0, 2) || leaf.path[2] !== h.slice(2, 4)) {
      report(v, 'E_VERIFY_DAG_NODE_PATH_MISMATCH', path, `holds node ${node.id}, whose path is nodes/${h.slice(0, 2)}/${h.slice(2, 4)}/${node.id}.json`);
      continue;
    }
    v.counts.nodes++;
    nodes.set(node.id, node);
  }
  return nodes;
}

function checkEdges(v: Verifier, nodes: ReadonlyMap<string, DagNode>): void {
  for (const n of nodes.values()) {
    const path = `${W}:node ${n.id}`;
    for (const [what, target] of [['predecessor', n.predecessor], ['caller', n.caller], ...n.reads.map((r) => ['reads', r] as const)] as const) {
      if (target !== undefined && !nodes.has(target)) report(v, 'E_VERIFY_DAG_EDGE_DANGLING', path, `${what} ${target} is not in the DAG`);
    }
  }
  // iterative DFS over predecessor, caller and reads edges: 1 = on the stack, 2 = done
  const color = new Map<string, number>();
  for (const start of nodes.keys()) {
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
function checkIndex(v: Verifier, kind: string, found: Map<string, string>, expected: Map<string, DagNode>): void {
  for (const [key, path] of found) {
    if (!expected.has(key)) report(v, 'E_VERIFY_DAG_INDEX_MISMATCH', path, `${kind} index entry without a matching node`);
  }
  for (const [key, n] of expected) if (!found.has(key)) report(v, 'E_VERIFY_DAG_INDEX_MISMATCH', `${W}:${kind}`, `node ${n.id} is missing from the ${kind} index (${key})`);
}

async function checkEdgeIndex(v: Verifier, tree: string, kind: 'children' | 'callees', nodes: ReadonlyMap<string, DagNode>): Promise<void> {
  const found = new Map<string, string>();
  const dir = await entryOf(v, W, tree, kind);
  if (dir !== undefined) {
    for (const leaf of await leavesAt(v, W, dir.oid, [kind], 4)) {
      const path = `${W}:${leaf.path.join('/')}`;
      const parent = leaf.path[3] as string;
      const name = leaf.path[4] as string;
      const id = name.slice(SEQ_DIGITS + 1);
      const n = nodes.get(id);
      const h = sha1Hex(parent);
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
  checkIndex(v, kind, found, expected);
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

async function readSessions(v: Verifier, tree: string, nodes: ReadonlyMap<string, DagNode>): Promise<Map<string, DagSession>> {
  const sessions = new Map<string, DagSession>();
  const roots = new Map<string, string>();
  const dir = await entryOf(v, W, tree, 'sessions');
  if (dir !== undefined) {
    for (const leaf of await allLeaves(v, W, dir.oid, ['sessions'])) {
      const path = `${W}:${leaf.path.join('/')}`;
      if (leaf.path.length !== 4 && leaf.path.length !== 5) {
        report(v, 'E_VERIFY_DAG_SESSION_INVALID', path, 'unexpected file in the sessions index');
        continue;
      }
      const name = decodeSessionName(leaf.path[2] as string);
      if (encodeSessionName(name) !== leaf.path[2] || leaf.path[1] !== sha1Hex(name).slice(0, 2)) {
        report(v, 'E_VERIFY_DAG_SESSION_INVALID', path, `session folder ${leaf.path[2] ?? ''} is not where session ${JSON.stringify(name)} belongs`);
        continue;
      }
      if (leaf.path.length === 4) {
        if (leaf.path[3] !== 'session.json') {
          report(v, 'E_VERIFY_DAG_SESSION_INVALID', path, 'unexpected file in a session folder');
          continue;
        }
        const parsed = await readJsonBlob(v, path, leaf.oid);
        if (parsed === undefined) continue;
        if (canonicalJson(parsed.value) !== parsed.text) report(v, 'E_VERIFY_DAG_NODE_NOT_CANONICAL', path, 'the session record is not canonical JSON');
        const rec = parseSession(v, path, name, parsed.value, nodes);
        if (rec !== undefined) sessions.set(name, rec);
        continue;
      }
      const id = (leaf.path[4] as string).slice(SEQ_DIGITS + 1);
      const n = nodes.get(id);
      if (leaf.path[3] !== 'roots' || n === undefined || n.predecessor !== undefined || n.caller !== undefined || n.session !== name || n.oid !== leaf.oid) {
        report(v, 'E_VERIFY_DAG_INDEX_MISMATCH', path, `roots entry does not match node ${id}`);
        continue;
      }
      roots.set(`${name}>${id}`, path);
    }
  }
  v.counts.sessions = sessions.size;
  const expected = new Map<string, DagNode>();
  for (const n of nodes.values()) {
    if (!sessions.has(n.session)) report(v, 'E_VERIFY_DAG_SESSION_INVALID', `${W}:node ${n.id}`, `appended by session ${JSON.stringify(n.session)}, which has no record`);
    if (n.predecessor === undefined && n.caller === undefined) expected.set(`${n.session}>${n.id}`, n);
  }
  checkIndex(v, 'roots', roots, expected);
  return sessions;
}

/** Reads and checks the DAG at `ref`: history, nodes, edges, acyclicity, indexes, session records. */
export async function checkDag(v: Verifier, ref: string): Promise<DagModel> {
  const empty: DagModel = { head: null, tree: null, nodes: new Map(), sessions: new Map(), history: [] };
  const head = await guard(v, ref, 'unreadable ref', () => readRef(v.git, ref));
  if (head === undefined || head === null) return empty;
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
    if (c.parents.length > 1) report(v, 'E_VERIFY_DAG_HISTORY_BROKEN', `${ref}@${at}`, 'a DAG commit has more than one parent');
    history.push(at);
    v.counts.dagCommits++;
    tree ??= c.tree;
    oid = c.parents[0];
  }
  if (tree === null) return { ...empty, head, history };
  const nodes = await readNodes(v, tree);
  checkEdges(v, nodes);
  await checkEdgeIndex(v, tree, 'children', nodes);
  await checkEdgeIndex(v, tree, 'callees', nodes);
  const sessions = await readSessions(v, tree, nodes);
  return { head, tree, nodes, sessions, history };
}

/** The node blob oids and session versions of the DAG at an earlier commit (for the append-only check). */
export async function snapshotAt(v: Verifier, commit: string): Promise<{ nodes: Map<string, string>; sessions: Map<string, number> } | undefined> {
  const c = await guard(v, `previous ${commit}`, 'unreadable previous DAG commit', () => readCommitObject(v.git, commit));
  if (c === undefined) return undefined;
  const nodes = new Map<string, string>();
  const sessions = new Map<string, number>();
  const nodesDir = await entryOf(v, commit, c.tree, 'nodes');
  if (nodesDir !== undefined) for (const leaf of await leavesAt(v, commit, nodesDir.oid, ['nodes'], 3)) nodes.set((leaf.path[3] as string).replace(/\.json$/u, ''), leaf.oid);
  const sessionsDir = await entryOf(v, commit, c.tree, 'sessions');
  if (sessionsDir !== undefined) {
    for (const leaf of await allLeaves(v, commit, sessionsDir.oid, ['sessions'])) {
      if (leaf.path.length !== 4 || leaf.path[3] !== 'session.json') continue;
      const bytes = await guard(v, `${commit}:${leaf.path.join('/')}`, 'unreadable blob', () => readBlob(v.git, leaf.oid));
      const parsed = bytes === undefined ? undefined : parseJson(bytes);
      if (parsed !== undefined && 'value' in parsed && isRecord(parsed.value) && typeof parsed.value['version'] === 'number') {
        sessions.set(decodeSessionName(leaf.path[2] as string), parsed.value['version']);
      }
    }
  }
  return { nodes, sessions };
}

