import {
  AgentRunningError,
  BothPredecessorAndCallerError,
  DagConflictError,
  DuplicateIdError,
  InvalidArgumentError,
  InvalidEdgeError,
  InvalidIdError,
  InvalidSessionNameError,
  MemoryNodeStore,
  MissingNodeError,
  NotJsonError,
  OutputTooLargeError,
  SessionExistsError,
  SessionNotFoundError,
  UnknownRoleError,
  appendAttach,
  appendNode,
  branchView,
  checkout,
  createSession,
  defaultNodeId,
  editNode,
  forkSession,
  retryNode,
  setAgentRunning,
  siblingIndex,
  type DagOptions,
  type Node,
  type NodeInput,
  type NodeStore,
} from '@ctxgit/dag';
import { beforeEach, describe, expect, it } from 'vitest';

let t = 0;
const opts: DagOptions = { clock: () => 1000 + t++ };
let store: MemoryNodeStore;

beforeEach(async () => {
  t = 0;
  store = new MemoryNodeStore();
  await createSession(store, 'chat');
});

const user = (output: string): NodeInput => ({ role: 'user', output });
const assistant = (output: string): NodeInput => ({ role: 'assistant', output });
const head = async (s = 'chat'): Promise<string | null> => (await store.getSession(s))?.head ?? null;

/** Everything in the store, to assert that a failed call wrote nothing. */
async function dump(s: NodeStore): Promise<string> {
  const out: unknown[] = [];
  for (const id of await s.listSessions()) {
    out.push(await s.getSession(id));
    const stack = [...(await s.rootsOf(id))];
    while (stack.length > 0) {
      const n = stack.pop() ?? '';
      out.push(await s.getNode(n));
      stack.push(...(await s.childrenOf(n)), ...(await s.calleesOf(n)));
    }
  }
  return JSON.stringify(out);
}

async function refused(p: Promise<unknown>, cls: new (...a: never[]) => Error, code: string): Promise<Error> {
  const before = await dump(store);
  const e = await p.then(
    () => new Error('expected a rejection'),
    (err: unknown) => err as Error,
  );
  expect(e).toBeInstanceOf(cls);
  expect((e as { code?: string }).code).toBe(code);
  expect(await dump(store)).toBe(before);
  return e;
}

describe('createSession', () => {
  it('creates an empty session record', async () => {
    expect(await store.getSession('chat')).toEqual({ id: 'chat', head: null, nextSeq: 0, agentRunning: false, version: 1 });
    expect(await createSession(store, 'other')).toEqual({ id: 'other', head: null, nextSeq: 0, agentRunning: false, version: 1 });
    expect([...(await store.listSessions())]).toEqual(['chat', 'other']);
  });

  it('refuses an existing or invalid name', async () => {
    await refused(createSession(store, 'chat'), SessionExistsError, 'E_DAG_SESSION_EXISTS');
    await refused(createSession(store, ''), InvalidSessionNameError, 'E_DAG_INVALID_SESSION_NAME');
    await refused(createSession(store, 'a\u0007b'), InvalidSessionNameError, 'E_DAG_INVALID_SESSION_NAME');
  });
});

describe('appendNode', () => {
  it('appends under HEAD with deterministic ids, seqs and the injected clock', async () => {
    const a = await appendNode(store, 'chat', user('hi'), opts);
    const b = await appendNode(store, 'chat', assistant('hello'), opts);
    expect(a).toEqual({ id: defaultNodeId('chat', 0), session: 'chat', seq: 0, createdAt: 1000, role: 'user', output: 'hi' });
    expect(b).toEqual({ id: defaultNodeId('chat', 1), session: 'chat', seq: 1, createdAt: 1001, role: 'assistant', output: 'hello', predecessor: a.id });
    expect(a.id).toMatch(/^[0-9a-f]{16}$/);
    expect(await store.getSession('chat')).toEqual({ id: 'chat', head: b.id, nextSeq: 2, agentRunning: false, version: 3 });
  });

  it('keeps every optional field', async () => {
    const a = await appendNode(store, 'chat', user('q'), opts);
    const n = await appendNode(store, 'chat', { role: 'assistant', name: 'bot', output: 'x', reads: [a.id], metadata: { k: [1, { v: null }] } }, opts);
    expect(await store.getNode(n.id)).toStrictEqual({ id: n.id, session: 'chat', seq: 1, createdAt: 1001, role: 'assistant', name: 'bot', output: 'x', predecessor: a.id, reads: [a.id], metadata: { k: [1, { v: null }] } });
  });

  it('hangs tool nodes under their caller without moving HEAD', async () => {
    await appendNode(store, 'chat', user('ls'), opts);
    const a = await appendNode(store, 'chat', assistant(''), opts);
    const t1 = await appendNode(store, 'chat', { role: 'tool', name: 'ls', input: { path: '.' }, output: 'a b', caller: a.id }, opts);
    const t2 = await appendNode(store, 'chat', { role: 'tool', name: 'cat', input: { path: 'a' }, output: 'A', caller: a.id }, opts);
    expect(t1.caller).toBe(a.id);
    expect(t1.predecessor).toBeUndefined();
    expect(await head()).toBe(a.id);
    expect([...(await store.calleesOf(a.id))]).toEqual([t1.id, t2.id]);
    const next = await appendNode(store, 'chat', assistant('done'), opts);
    expect(next.predecessor).toBe(a.id);
  });

  it('uses custom id generators and validates their ids', async () => {
    const n = await appendNode(store, 'chat', user('x'), { ...opts, ids: (s, seq) => `${s}-${seq}` });
    expect(n.id).toBe('chat-0');
    await refused(appendNode(store, 'chat', user('y'), { ...opts, ids: () => '../evil' }), InvalidIdError, 'E_DAG_INVALID_ID');
    await refused(appendNode(store, 'chat', user('y'), { ...opts, ids: () => 'chat-0' }), DuplicateIdError, 'E_DAG_DUPLICATE_ID');
  });

  it('refuses every kind of bad input before writing', async () => {
    const a = await appendNode(store, 'chat', assistant('a'), opts);
    const u = await appendNode(store, 'chat', user('u'), opts);
    await refused(appendNode(store, 'nope', user('x'), opts), SessionNotFoundError, 'E_DAG_SESSION_NOT_FOUND');
    await refused(appendNode(store, 'chat', { role: 'robot', output: 'x' } as unknown as NodeInput, opts), UnknownRoleError, 'E_DAG_UNKNOWN_ROLE');
    await refused(appendNode(store, 'chat', { role: 'tool', name: 't', output: 'x', caller: a.id, predecessor: u.id } as unknown as NodeInput, opts), BothPredecessorAndCallerError, 'E_DAG_BOTH_PREDECESSOR_AND_CALLER');
    await refused(appendNode(store, 'chat', { role: 'user', output: 'x', predecessor: u.id } as unknown as NodeInput, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendNode(store, 'chat', { role: 'tool', name: 't', output: 'x', caller: 'ffffffffffffffff' }, opts), MissingNodeError, 'E_DAG_MISSING_NODE');
    await refused(appendNode(store, 'chat', { role: 'user', output: 'x', reads: ['ffffffffffffffff'] }, opts), MissingNodeError, 'E_DAG_MISSING_NODE');
    await refused(appendNode(store, 'chat', { role: 'tool', name: 't', output: 'x', caller: u.id }, opts), InvalidEdgeError, 'E_DAG_INVALID_EDGE');
    await refused(appendNode(store, 'chat', { role: 'user', output: 'x', caller: a.id }, opts), InvalidEdgeError, 'E_DAG_INVALID_EDGE');
    await refused(appendNode(store, 'chat', { role: 'tool', name: 't', output: 'x' }, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendNode(store, 'chat', { role: 'tool', output: 'x', caller: a.id }, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendNode(store, 'chat', { role: 'user', output: 7 } as unknown as NodeInput, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendNode(store, 'chat', { role: 'user', output: 'x', extra: 1 } as unknown as NodeInput, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendNode(store, 'chat', null as unknown as NodeInput, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendNode(store, 'chat', { role: 'user', output: 'x', metadata: [] as unknown as { [k: string]: never } }, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendNode(store, 'chat', user('x'), { clock: () => NaN }), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendNode(store, 'chat', user('x'), { maxOutputBytes: -1 }), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
  });

  it('refuses values that are not JSON, naming their path', async () => {
    const cases: Array<[unknown, string]> = [
      [{ f: () => 1 }, 'input.f'],
      [[1, undefined], 'input[1]'],
      [{ a: { b: [0, Infinity] } }, 'input.a.b[1]'],
      [{ s: 'x\ud800' }, 'input.s'],
      [{ d: new Date(0) }, 'input.d'],
      [{ m: new Map() }, 'input.m'],
      [{ 'odd key': NaN }, 'input["odd key"]'],
      [{ big: 1n }, 'input.big'],
    ];
    for (const [input, path] of cases) {
      const e = await refused(appendNode(store, 'chat', { role: 'user', output: 'x', input: input as never }, opts), NotJsonError, 'E_DAG_NOT_JSON');
      expect((e as NotJsonError).data.path).toBe(path);
    }
    const e = await refused(appendNode(store, 'chat', { role: 'user', output: 'bad \udc00' }, opts), NotJsonError, 'E_DAG_NOT_JSON');
    expect((e as NotJsonError).data.path).toBe('output');
    const m = await refused(appendNode(store, 'chat', { role: 'user', output: 'x', metadata: { a: [undefined as never] } }, opts), NotJsonError, 'E_DAG_NOT_JSON');
    expect((m as NotJsonError).data.path).toBe('metadata.a[0]');
  });

  it('limits output size in UTF-8 bytes, 1 MiB by default', async () => {
    const mib = 1024 * 1024;
    await appendNode(store, 'chat', user('a'.repeat(mib)), opts);
    const e = await refused(appendNode(store, 'chat', user('a'.repeat(mib + 1)), opts), OutputTooLargeError, 'E_DAG_OUTPUT_TOO_LARGE');
    expect((e as OutputTooLargeError).data).toMatchObject({ bytes: mib + 1, limit: mib });
    await appendNode(store, 'chat', user('é🚀'), { ...opts, maxOutputBytes: 6 });
    const small = await refused(appendNode(store, 'chat', user('é🚀x'), { ...opts, maxOutputBytes: 6 }), OutputTooLargeError, 'E_DAG_OUTPUT_TOO_LARGE');
    expect((small as OutputTooLargeError).data.bytes).toBe(7);
  });

  it('surfaces a concurrent writer as a retryable conflict and stores nothing', async () => {
    await appendNode(store, 'chat', user('a'), opts);
    const results = await Promise.allSettled([appendNode(store, 'chat', user('b'), opts), appendNode(store, 'chat', user('c'), opts)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(DagConflictError);
    expect((lost.reason as DagConflictError).retryable).toBe(true);
    expect((await store.getSession('chat'))?.nextSeq).toBe(2);
    const again = await appendNode(store, 'chat', user('c'), opts);
    expect(again.seq).toBe(2);
  });
});

describe('retryNode and editNode', () => {
  it('retry makes a same-content sibling and moves HEAD to it', async () => {
    const q = await appendNode(store, 'chat', { role: 'user', name: 'ann', output: 'q', metadata: { m: 1 } }, opts);
    const a = await appendNode(store, 'chat', assistant('a1'), opts);
    const a2 = await retryNode(store, 'chat', a.id, opts);
    expect(a2).toMatchObject({ role: 'assistant', output: 'a1', predecessor: q.id, seq: 2 });
    expect(a2.id).not.toBe(a.id);
    expect(await head()).toBe(a2.id);
    expect(await siblingIndex(store, a.id)).toEqual({ index: 1, total: 2, ids: [a.id, a2.id] });
    expect(await siblingIndex(store, a2.id)).toEqual({ index: 2, total: 2, ids: [a.id, a2.id] });
    const q2 = await retryNode(store, 'chat', q.id, opts);
    expect(q2).toMatchObject({ role: 'user', name: 'ann', output: 'q', metadata: { m: 1 } });
    expect(q2.predecessor).toBeUndefined();
    expect(await siblingIndex(store, q2.id)).toEqual({ index: 2, total: 2, ids: [q.id, q2.id] });
  });

  it('retry of a tool node is a sibling under the same caller, HEAD unchanged', async () => {
    const a = await appendNode(store, 'chat', assistant('a'), opts);
    const tool = await appendNode(store, 'chat', { role: 'tool', name: 'ls', input: { p: 1 }, output: 'o', caller: a.id }, opts);
    const again = await retryNode(store, 'chat', tool.id, opts);
    expect(again).toMatchObject({ role: 'tool', name: 'ls', input: { p: 1 }, output: 'o', caller: a.id });
    expect(await head()).toBe(a.id);
    expect((await siblingIndex(store, again.id)).ids).toEqual([tool.id, again.id]);
  });

  it('edit makes a different-content sibling and moves HEAD to it', async () => {
    const q = await appendNode(store, 'chat', user('q'), opts);
    await appendNode(store, 'chat', assistant('a'), opts);
    const q2 = await editNode(store, 'chat', q.id, { output: 'q, better' }, opts);
    expect(q2).toMatchObject({ role: 'user', output: 'q, better', seq: 2 });
    expect(await head()).toBe(q2.id);
    expect((await store.getNode(q.id))?.output).toBe('q');
    expect((await siblingIndex(store, q.id)).total).toBe(2);
    const q3 = await editNode(store, 'chat', q.id, { input: null, metadata: { why: 'typo' } }, opts);
    expect(q3).toMatchObject({ output: 'q', input: null, metadata: { why: 'typo' } });
  });

  it('edit refuses no-op and unknown changes, and validates new content', async () => {
    const q = await appendNode(store, 'chat', user('q'), opts);
    await refused(editNode(store, 'chat', q.id, { output: 'q' }, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(editNode(store, 'chat', q.id, { role: 'assistant' } as never, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(editNode(store, 'chat', q.id, null as never, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(editNode(store, 'chat', q.id, { input: { f: Symbol('x') } as never }, opts), NotJsonError, 'E_DAG_NOT_JSON');
    await refused(editNode(store, 'chat', q.id, { input: { n: 1n } as never }, opts), NotJsonError, 'E_DAG_NOT_JSON');
    await refused(editNode(store, 'chat', q.id, { output: 'x'.repeat(11) }, { ...opts, maxOutputBytes: 10 }), OutputTooLargeError, 'E_DAG_OUTPUT_TOO_LARGE');
  });

  it('both are refused while an agent run is active, and for unknown nodes', async () => {
    const q = await appendNode(store, 'chat', user('q'), opts);
    await setAgentRunning(store, 'chat', true);
    const e = await refused(retryNode(store, 'chat', q.id, opts), AgentRunningError, 'E_DAG_AGENT_RUNNING');
    expect((e as AgentRunningError).data).toEqual({ session: 'chat', operation: 'retryNode' });
    await refused(editNode(store, 'chat', q.id, { output: 'x' }, opts), AgentRunningError, 'E_DAG_AGENT_RUNNING');
    await setAgentRunning(store, 'chat', false);
    await refused(retryNode(store, 'chat', 'ffffffffffffffff', opts), MissingNodeError, 'E_DAG_MISSING_NODE');
    await refused(retryNode(store, 'nope', q.id, opts), SessionNotFoundError, 'E_DAG_SESSION_NOT_FOUND');
  });

  it('a root of another session cannot get a root sibling from this one', async () => {
    const q = await appendNode(store, 'chat', user('q'), opts);
    await forkSession(store, 'chat', 'b', { at: q.id });
    await refused(retryNode(store, 'b', q.id, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
  });
});

describe('checkout', () => {
  it('moves only HEAD, to any conversation node, and appends go there', async () => {
    const q = await appendNode(store, 'chat', user('q'), opts);
    const a = await appendNode(store, 'chat', assistant('a'), opts);
    const before = await store.getSession('chat');
    const rec = await checkout(store, 'chat', q.id);
    expect(rec).toEqual({ ...before, head: q.id, version: (before?.version ?? 0) + 1 });
    expect(await store.getNode(a.id)).toEqual(a);
    const b = await appendNode(store, 'chat', assistant('b'), opts);
    expect(b.predecessor).toBe(q.id);
    expect((await siblingIndex(store, b.id)).ids).toEqual([a.id, b.id]);
  });

  it('checking out HEAD writes nothing', async () => {
    const q = await appendNode(store, 'chat', user('q'), opts);
    const before = await store.getSession('chat');
    expect(await checkout(store, 'chat', q.id)).toBe(before);
    expect((await store.getSession('chat'))?.version).toBe(before?.version);
  });

  it('can check out a node of another session; seqs stay above the new predecessor', async () => {
    await createSession(store, 'far');
    let last: Node | undefined;
    for (let i = 0; i < 5; i++) last = await appendNode(store, 'far', user(`f${i}`), opts);
    await appendNode(store, 'chat', user('c'), opts);
    await checkout(store, 'chat', last?.id ?? '');
    const n = await appendNode(store, 'chat', assistant('x'), opts);
    expect(n.seq).toBe(5);
    expect(n.predecessor).toBe(last?.id);
    expect((await branchView(store, n.id)).map((v) => v.output)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'x']);
  });

  it('refuses tool nodes, unknown nodes and active agent runs', async () => {
    const a = await appendNode(store, 'chat', assistant('a'), opts);
    const q = await appendNode(store, 'chat', user('q'), opts);
    const tool = await appendNode(store, 'chat', { role: 'tool', name: 't', output: '', caller: a.id }, opts);
    await refused(checkout(store, 'chat', tool.id), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(checkout(store, 'chat', 'ffffffffffffffff'), MissingNodeError, 'E_DAG_MISSING_NODE');
    await refused(checkout(store, 'chat', 'bad id'), InvalidIdError, 'E_DAG_INVALID_ID');
    await setAgentRunning(store, 'chat', true);
    await refused(checkout(store, 'chat', a.id), AgentRunningError, 'E_DAG_AGENT_RUNNING');
    expect(await head()).toBe(q.id);
  });
});

describe('siblingIndex', () => {
  it('a lone node is 1/1; roots are siblings within their session', async () => {
    const q = await appendNode(store, 'chat', user('q'), opts);
    expect(await siblingIndex(store, q.id)).toEqual({ index: 1, total: 1, ids: [q.id] });
    await refused(siblingIndex(store, 'ffffffffffffffff'), MissingNodeError, 'E_DAG_MISSING_NODE');
  });
});

describe('forkSession', () => {
  it('creates a session at a node; its seqs continue after the node; the source is unchanged', async () => {
    const q = await appendNode(store, 'chat', user('q'), opts);
    const a = await appendNode(store, 'chat', assistant('a'), opts);
    await appendNode(store, 'chat', user('q2'), opts);
    const source = await store.getSession('chat');
    const rec = await forkSession(store, 'chat', 'fork', { at: a.id });
    expect(rec).toEqual({ id: 'fork', head: a.id, nextSeq: 2, agentRunning: false, forkedFrom: { session: 'chat', node: a.id }, version: 1 });
    expect(await store.getSession('chat')).toEqual(source);
    const n = await appendNode(store, 'fork', user('other q2'), opts);
    expect(n).toMatchObject({ session: 'fork', seq: 2, predecessor: a.id, id: defaultNodeId('fork', 2) });
    expect((await branchView(store, n.id)).map((v) => v.id)).toEqual([q.id, a.id, n.id]);
    expect((await siblingIndex(store, n.id)).total).toBe(2);
    const atHead = await forkSession(store, 'chat', 'fork2');
    expect(atHead.head).toBe(source?.head);
  });

  it('refuses unknown sessions and nodes, taken names, empty sources and tool nodes', async () => {
    await refused(forkSession(store, 'chat', 'x'), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    const a = await appendNode(store, 'chat', assistant('a'), opts);
    const tool = await appendNode(store, 'chat', { role: 'tool', name: 't', output: '', caller: a.id }, opts);
    await createSession(store, 'taken');
    await refused(forkSession(store, 'nope', 'x'), SessionNotFoundError, 'E_DAG_SESSION_NOT_FOUND');
    await refused(forkSession(store, 'chat', 'taken'), SessionExistsError, 'E_DAG_SESSION_EXISTS');
    await refused(forkSession(store, 'chat', 'x', { at: 'ffffffffffffffff' }), MissingNodeError, 'E_DAG_MISSING_NODE');
    await refused(forkSession(store, 'chat', 'x', { at: tool.id }), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(forkSession(store, 'chat', ''), InvalidSessionNameError, 'E_DAG_INVALID_SESSION_NAME');
  });
});

describe('appendAttach', () => {
  const commit = 'a'.repeat(40);

  it('appends a user pointer node naming session, head and commit', async () => {
    await createSession(store, 'research');
    const r = await appendNode(store, 'research', assistant('findings'), opts);
    const q = await appendNode(store, 'chat', user('q'), opts);
    const p = await appendAttach(store, 'chat', { session: 'research', head: r.id, commit }, opts);
    expect(p).toMatchObject({
      role: 'user',
      predecessor: q.id,
      output: `[attached session research at node ${r.id}, commit ${commit}]`,
      metadata: { attach: { session: 'research', head: r.id, commit } },
    });
    expect(await head()).toBe(p.id);
    const s = await appendAttach(store, 'chat', { session: 'research', head: r.id, commit: 'b'.repeat(64) }, { ...opts, role: 'system', output: 'see research', metadata: { note: 1 } });
    expect(s).toMatchObject({ role: 'system', output: 'see research', metadata: { note: 1, attach: { commit: 'b'.repeat(64) } } });
  });

  it('refuses bad sources and options', async () => {
    await createSession(store, 'research');
    const r = await appendNode(store, 'research', assistant('x'), opts);
    await refused(appendAttach(store, 'chat', { session: 'research', head: r.id, commit: 'xyz' }, opts), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendAttach(store, 'chat', { session: 'nope', head: r.id, commit }, opts), SessionNotFoundError, 'E_DAG_SESSION_NOT_FOUND');
    await refused(appendAttach(store, 'chat', { session: 'research', head: 'ffffffffffffffff', commit }, opts), MissingNodeError, 'E_DAG_MISSING_NODE');
    await refused(appendAttach(store, 'chat', { session: 'research', head: r.id, commit }, { role: 'assistant' as never }), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendAttach(store, 'chat', { session: 'research', head: r.id, commit }, { metadata: { attach: 1 } }), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(appendAttach(store, 'chat', null as never), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
  });
});

describe('setAgentRunning', () => {
  it('takes and releases the lock; taking it twice is refused; releasing a free lock writes nothing', async () => {
    const on = await setAgentRunning(store, 'chat', true);
    expect(on).toMatchObject({ agentRunning: true, version: 2 });
    await refused(setAgentRunning(store, 'chat', true), AgentRunningError, 'E_DAG_AGENT_RUNNING');
    await appendNode(store, 'chat', user('the agent appends'), opts);
    const off = await setAgentRunning(store, 'chat', false);
    expect(off).toMatchObject({ agentRunning: false, version: 4 });
    expect(await setAgentRunning(store, 'chat', false)).toBe(await store.getSession('chat'));
    await refused(setAgentRunning(store, 'chat', 'yes' as never), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(setAgentRunning(store, 'nope', true), SessionNotFoundError, 'E_DAG_SESSION_NOT_FOUND');
  });
});

describe('branchView', () => {
  it('is the ancestor chain in seq order with tool nodes right after their assistant', async () => {
    const q = await appendNode(store, 'chat', user('q'), opts);
    const a = await appendNode(store, 'chat', assistant('a'), opts);
    const t1 = await appendNode(store, 'chat', { role: 'tool', name: 'x', output: '1', caller: a.id }, opts);
    const t2 = await appendNode(store, 'chat', { role: 'tool', name: 'y', output: '2', caller: a.id }, opts);
    const a2 = await appendNode(store, 'chat', assistant('a2'), opts);
    const t3 = await appendNode(store, 'chat', { role: 'tool', name: 'z', output: '3', caller: a2.id }, opts);
    const off = await retryNode(store, 'chat', a.id, opts);
    expect((await branchView(store, a2.id)).map((n) => n.id)).toEqual([q.id, a.id, t1.id, t2.id, a2.id, t3.id]);
    expect((await branchView(store, off.id)).map((n) => n.id)).toEqual([q.id, off.id]);
    expect((await branchView(store, q.id)).map((n) => n.id)).toEqual([q.id]);
    await refused(branchView(store, t1.id), InvalidArgumentError, 'E_DAG_INVALID_ARGUMENT');
    await refused(branchView(store, 'ffffffffffffffff'), MissingNodeError, 'E_DAG_MISSING_NODE');
  });

  it('reports a corrupt store: a broken chain, a cycle, seqs not decreasing', async () => {
    const bad = new MemoryNodeStore();
    await bad.write({
      expected: null,
      next: { id: 's', head: 'b', nextSeq: 3, agentRunning: false, version: 1 },
      nodes: [
        { id: 'a', session: 's', seq: 0, createdAt: 0, role: 'user', output: '', predecessor: 'b' },
        { id: 'b', session: 's', seq: 1, createdAt: 0, role: 'user', output: '', predecessor: 'a' },
        { id: 'c', session: 's', seq: 2, createdAt: 0, role: 'user', output: '', predecessor: 'gone' },
        { id: 'd', session: 's', seq: 3, createdAt: 0, role: 'user', output: '', predecessor: 'e' },
        { id: 'e', session: 's', seq: 5, createdAt: 0, role: 'user', output: '' },
      ],
    });
    await expect(branchView(bad, 'b')).rejects.toMatchObject({ code: 'E_DAG_CYCLE', data: { ids: ['b', 'a', 'b'] } });
    await expect(branchView(bad, 'd')).rejects.toMatchObject({ code: 'E_DAG_INVALID_EDGE', data: { id: 'd', target: 'e' } });
    await expect(branchView(bad, 'c')).rejects.toMatchObject({ code: 'E_DAG_MISSING_NODE', data: { missing: 'gone' } });
  });
});

describe('races', () => {
  it('an id taken by a concurrent writer of the same seq is a retryable conflict, not a duplicate', async () => {
    const stale = await store.getSession('chat');
    await appendNode(store, 'chat', user('first'), opts);
    let reads = 0;
    const real = store;
    const racing: NodeStore = {
      getNode: (id) => real.getNode(id),
      childrenOf: (id) => real.childrenOf(id),
      calleesOf: (id) => real.calleesOf(id),
      rootsOf: (s) => real.rootsOf(s),
      getSession: async (id) => (reads++ === 0 ? stale : real.getSession(id)),
      listSessions: () => real.listSessions(),
      write: (c) => real.write(c),
    };
    const e = await refused(appendNode(racing, 'chat', user('second'), opts), DagConflictError, 'E_DAG_CONFLICT');
    expect((e as DagConflictError).data).toEqual({ session: 'chat', expected: 1, actual: 2 });
  });
});

describe('append-only', () => {
  it('no operation changes a stored node, successful or not', async () => {
    const snapshot = async (): Promise<string[]> => {
      const out: string[] = [];
      for (const s of await store.listSessions()) {
        const stack = [...(await store.rootsOf(s))];
        while (stack.length > 0) {
          const id = stack.pop() ?? '';
          out.push(JSON.stringify(await store.getNode(id)));
          stack.push(...(await store.childrenOf(id)), ...(await store.calleesOf(id)));
        }
      }
      return out.sort();
    };
    const q = await appendNode(store, 'chat', user('q'), opts);
    const a = await appendNode(store, 'chat', { role: 'assistant', output: 'a', metadata: { m: [1] } }, opts);
    const tool = await appendNode(store, 'chat', { role: 'tool', name: 't', input: { x: 1 }, output: 'o', caller: a.id }, opts);
    const steps: Array<() => Promise<unknown>> = [
      () => retryNode(store, 'chat', a.id, opts),
      () => editNode(store, 'chat', a.id, { output: 'a!', metadata: { m: [2] } }, opts),
      () => retryNode(store, 'chat', tool.id, opts),
      () => editNode(store, 'chat', tool.id, { input: { x: 2 } }, opts),
      () => checkout(store, 'chat', q.id),
      () => forkSession(store, 'chat', 'f', { at: a.id }),
      () => appendAttach(store, 'chat', { session: 'chat', head: a.id, commit: 'c'.repeat(40) }, opts),
      () => setAgentRunning(store, 'chat', true),
      () => retryNode(store, 'chat', q.id, opts),
      () => setAgentRunning(store, 'chat', false),
      () => editNode(store, 'chat', q.id, { output: 'q' }, opts),
      () => siblingIndex(store, a.id),
      () => branchView(store, a.id),
    ];
    for (const step of steps) {
      const before = await snapshot();
      await step().catch(() => undefined);
      const after = await snapshot();
      // Every node stored before is still stored byte for byte; at most new ones were added.
      expect(after.filter((n) => before.includes(n))).toEqual(before);
    }
  });
});
