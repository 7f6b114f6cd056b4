/**
 * The conformance suite every {@link NodeStore} must pass. Self-contained: imports only vitest and @ctxgit/dag,
 * so another package can run it by relative path:
 *
 * ```ts
 * import { nodeStoreConformance } from '../../dag/test/node-store-conformance.js';
 * nodeStoreConformance('GitNodeStore', async () => new GitNodeStore(...));
 * ```
 */
import { describe, expect, it } from 'vitest';
import {
  DagConflictError,
  DagError,
  DuplicateIdError,
  appendNode,
  branchView,
  createSession,
  retryNode,
  siblingIndex,
  type Node,
  type NodeStore,
  type SessionRecord,
} from '@ctxgit/dag';

const rec = (id: string, version: number, extra: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  head: null,
  nextSeq: 0,
  agentRunning: false,
  version,
  ...extra,
});

const node = (id: string, session: string, seq: number, extra: Partial<Node> = {}): Node => ({
  id,
  session,
  seq,
  createdAt: 1_700_000_000_000 + seq,
  role: 'user',
  output: `text of ${id}`,
  ...extra,
});

/** Creates session `id` holding `nodes` in one write; returns the stored record. */
async function seed(store: NodeStore, id: string, nodes: readonly Node[] = [], extra: Partial<SessionRecord> = {}): Promise<SessionRecord> {
  const next = rec(id, 1, { nextSeq: nodes.length === 0 ? 0 : Math.max(...nodes.map((n) => n.seq)) + 1, head: nodes.at(-1)?.id ?? null, ...extra });
  await store.write({ expected: null, next, nodes });
  return next;
}

/** Every node and record reachable from the store, as plain JSON text, to compare states. */
async function snapshot(store: NodeStore, ids: readonly string[]): Promise<string> {
  const sessions = await store.listSessions();
  const out: unknown[] = [[...sessions]];
  for (const s of sessions) out.push(await store.getSession(s), [...(await store.rootsOf(s))]);
  for (const id of ids) out.push(await store.getNode(id), [...(await store.childrenOf(id))], [...(await store.calleesOf(id))]);
  return JSON.stringify(out);
}

async function expectRejects(p: Promise<unknown>, cls: abstract new (...args: never[]) => Error, code: string): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(cls);
  expect((e as DagError).code).toBe(code);
}

/**
 * Declares the vitest `describe` block that checks one NodeStore implementation against the whole contract:
 * reads of an empty store, create and update through compare-and-swap, conflicts that store nothing, duplicate
 * ids refused, children/callees/roots in `(seq, id)` order, sorted session listing, isolation of stored state
 * from the objects written and returned, and concurrent writes where exactly one wins.
 *
 * @param name - Shown in the test names.
 * @param makeStore - Returns a fresh, empty store for each test.
 */
export function nodeStoreConformance(name: string, makeStore: () => Promise<NodeStore>): void {
  describe(`NodeStore conformance: ${name}`, () => {
    it('an empty store holds nothing', async () => {
      const s = await makeStore();
      expect([...(await s.listSessions())]).toEqual([]);
      expect(await s.getSession('a')).toBeUndefined();
      expect(await s.getNode('n1')).toBeUndefined();
      expect([...(await s.childrenOf('n1'))]).toEqual([]);
      expect([...(await s.calleesOf('n1'))]).toEqual([]);
      expect([...(await s.rootsOf('a'))]).toEqual([]);
    });

    it('stores a created session and its nodes exactly, every optional field kept and none added', async () => {
      const s = await makeStore();
      const full = node('n1', 'a', 0, {
        role: 'assistant',
        name: 'bot',
        input: { deep: [1, 'two', { three: null, four: true, five: -2.5 }], 'odd key': '' },
        output: 'héllo 🚀 \u0000 "quoted"\n',
        reads: [],
        metadata: { tags: ['x'], nested: { n: 0 } },
      });
      const bare = node('n2', 'a', 1, { predecessor: 'n1' });
      const next = await seed(s, 'a', [full, bare], { agentRunning: true, forkedFrom: { session: 'z', node: 'q' } });
      expect(await s.getNode('n1')).toStrictEqual(full);
      expect(await s.getNode('n2')).toStrictEqual(bare);
      expect(Object.keys((await s.getNode('n2')) ?? {}).sort()).toEqual(Object.keys(bare).sort());
      expect(await s.getSession('a')).toStrictEqual(next);
      const plain = rec('b', 1);
      await s.write({ expected: null, next: plain, nodes: [] });
      expect(await s.getSession('b')).toStrictEqual(plain);
      expect('forkedFrom' in ((await s.getSession('b')) ?? {})).toBe(false);
    });

    it('updates a session by compare-and-swap on version', async () => {
      const s = await makeStore();
      const v1 = await seed(s, 'a', [node('n1', 'a', 0)]);
      const v2 = rec('a', 2, { head: 'n2', nextSeq: 2 });
      await s.write({ expected: v1, next: v2, nodes: [node('n2', 'a', 1, { predecessor: 'n1' })] });
      expect(await s.getSession('a')).toStrictEqual(v2);
      const v3 = rec('a', 3, { head: 'n1', nextSeq: 2 });
      await s.write({ expected: v2, next: v3, nodes: [] });
      expect(await s.getSession('a')).toStrictEqual(v3);
      expect((await s.getNode('n2'))?.predecessor).toBe('n1');
    });

    it('a stale expected version conflicts and stores nothing', async () => {
      const s = await makeStore();
      const v1 = await seed(s, 'a', [node('n1', 'a', 0)]);
      const v2 = rec('a', 2, { head: 'n2', nextSeq: 2 });
      await s.write({ expected: v1, next: v2, nodes: [node('n2', 'a', 1, { predecessor: 'n1' })] });
      const before = await snapshot(s, ['n1', 'n2', 'n3']);
      await expectRejects(
        s.write({ expected: v1, next: rec('a', 2, { head: 'n3', nextSeq: 3 }), nodes: [node('n3', 'a', 2, { predecessor: 'n1' })] }),
        DagConflictError,
        'E_DAG_CONFLICT',
      );
      expect(await s.getNode('n3')).toBeUndefined();
      expect(await snapshot(s, ['n1', 'n2', 'n3'])).toBe(before);
    });

    it('the conflict error is retryable and names the session and versions', async () => {
      const s = await makeStore();
      const v1 = await seed(s, 'a');
      await s.write({ expected: v1, next: rec('a', 2), nodes: [] });
      const e = await s.write({ expected: v1, next: rec('a', 2), nodes: [] }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(DagConflictError);
      expect((e as DagConflictError).retryable).toBe(true);
      expect((e as DagConflictError).data).toEqual({ session: 'a', expected: 1, actual: 2 });
    });

    it('creating an existing session conflicts and stores nothing', async () => {
      const s = await makeStore();
      await seed(s, 'a', [node('n1', 'a', 0)]);
      const before = await snapshot(s, ['n1', 'x1']);
      await expectRejects(s.write({ expected: null, next: rec('a', 1), nodes: [node('x1', 'a', 0)] }), DagConflictError, 'E_DAG_CONFLICT');
      expect(await snapshot(s, ['n1', 'x1'])).toBe(before);
    });

    it('updating a missing session conflicts and stores nothing', async () => {
      const s = await makeStore();
      await expectRejects(s.write({ expected: rec('ghost', 1), next: rec('ghost', 2), nodes: [node('x1', 'ghost', 0)] }), DagConflictError, 'E_DAG_CONFLICT');
      expect(await s.getSession('ghost')).toBeUndefined();
      expect(await s.getNode('x1')).toBeUndefined();
      expect([...(await s.listSessions())]).toEqual([]);
    });

    it('a next record whose version does not follow is refused and stores nothing', async () => {
      const s = await makeStore();
      const v1 = await seed(s, 'a');
      const before = await snapshot(s, ['x1']);
      const e = await s.write({ expected: v1, next: rec('a', 5), nodes: [node('x1', 'a', 0)] }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(DagError);
      const e2 = await s.write({ expected: null, next: rec('b', 2), nodes: [] }).catch((err: unknown) => err);
      expect(e2).toBeInstanceOf(DagError);
      expect(await snapshot(s, ['x1'])).toBe(before);
    });

    it('a node id already stored is refused and nothing of the write is stored', async () => {
      const s = await makeStore();
      const v1 = await seed(s, 'a', [node('n1', 'a', 0)]);
      const before = await snapshot(s, ['n1', 'n2']);
      await expectRejects(
        s.write({ expected: v1, next: rec('a', 2, { head: 'n1', nextSeq: 3 }), nodes: [node('n2', 'a', 1), node('n1', 'a', 2, { output: 'other' })] }),
        DuplicateIdError,
        'E_DAG_DUPLICATE_ID',
      );
      expect(await snapshot(s, ['n1', 'n2'])).toBe(before);
      expect((await s.getNode('n1'))?.output).toBe('text of n1');
    });

    it('an id repeated inside one write is refused and nothing is stored', async () => {
      const s = await makeStore();
      await expectRejects(s.write({ expected: null, next: rec('a', 1), nodes: [node('d1', 'a', 0), node('d1', 'a', 1)] }), DuplicateIdError, 'E_DAG_DUPLICATE_ID');
      expect(await s.getSession('a')).toBeUndefined();
      expect(await s.getNode('d1')).toBeUndefined();
    });

    it('childrenOf lists predecessor-children in seq order, equal seqs by id, across writes and sessions', async () => {
      const s = await makeStore();
      const v1 = await seed(s, 'a', [node('p', 'a', 0), node('c5', 'a', 5, { predecessor: 'p' }), node('c2', 'a', 2, { predecessor: 'p' })]);
      await s.write({ expected: v1, next: rec('a', 2, { nextSeq: 9 }), nodes: [node('c8', 'a', 8, { predecessor: 'p' }), node('c3', 'a', 3, { predecessor: 'p' })] });
      await seed(s, 'b', [node('zb', 'b', 2, { predecessor: 'p' }), node('ab', 'b', 2, { predecessor: 'p' }), node('b1', 'b', 1, { predecessor: 'p' })]);
      expect([...(await s.childrenOf('p'))]).toEqual(['b1', 'ab', 'c2', 'zb', 'c3', 'c5', 'c8']);
      expect([...(await s.childrenOf('c2'))]).toEqual([]);
    });

    it('calleesOf lists caller-children in seq order, apart from predecessor-children', async () => {
      const s = await makeStore();
      await seed(s, 'a', [
        node('u', 'a', 0),
        node('as', 'a', 1, { role: 'assistant', predecessor: 'u' }),
        node('t4', 'a', 4, { role: 'tool', name: 'ls', caller: 'as' }),
        node('t2', 'a', 2, { role: 'tool', name: 'cat', input: { f: 'x' }, caller: 'as' }),
        node('nx', 'a', 3, { predecessor: 'as' }),
      ]);
      expect([...(await s.calleesOf('as'))]).toEqual(['t2', 't4']);
      expect([...(await s.childrenOf('as'))]).toEqual(['nx']);
      expect([...(await s.calleesOf('u'))]).toEqual([]);
    });

    it('rootsOf lists only the roots appended by that session, in seq order', async () => {
      const s = await makeStore();
      const v1 = await seed(s, 'a', [node('r3', 'a', 3), node('r1', 'a', 1), node('k', 'a', 4, { predecessor: 'r1' })]);
      await s.write({ expected: v1, next: rec('a', 2, { nextSeq: 6 }), nodes: [node('r5', 'a', 5)] });
      await seed(s, 'b', [node('rb', 'b', 0), node('kb', 'b', 1, { predecessor: 'r1' })]);
      expect([...(await s.rootsOf('a'))]).toEqual(['r1', 'r3', 'r5']);
      expect([...(await s.rootsOf('b'))]).toEqual(['rb']);
      expect([...(await s.rootsOf('c'))]).toEqual([]);
    });

    it('listSessions lists every session sorted by code unit', async () => {
      const s = await makeStore();
      for (const id of ['m', 'B', 'a/b', 'a', 'Z-1', 'é']) await seed(s, id);
      expect([...(await s.listSessions())]).toEqual(['B', 'Z-1', 'a', 'a/b', 'm', 'é']);
    });

    it('objects written and objects returned cannot change stored state', async () => {
      const s = await makeStore();
      const meta = { list: [1, 2], obj: { k: 'v' } };
      const n1 = node('n1', 'a', 0, { role: 'assistant', input: { args: ['x'] }, metadata: meta, reads: [] });
      const n2 = node('n2', 'a', 1, { role: 'tool', name: 't', caller: 'n1' });
      const written = rec('a', 1, { head: 'n1', nextSeq: 2, forkedFrom: { session: 'o', node: 'p' } });
      await s.write({ expected: null, next: written, nodes: [n1, n2] });
      const before = await snapshot(s, ['n1', 'n2']);
      const tamper = (f: () => void): void => {
        try {
          f();
        } catch {
          // a frozen object refusing the change is fine too
        }
      };
      tamper(() => meta.list.push(3));
      tamper(() => ((n1 as { output: string }).output = 'changed'));
      tamper(() => (((n1.input as { args: string[] }).args)[0] = 'y'));
      tamper(() => ((written as { head: string | null }).head = 'n2'));
      tamper(() => ((written.forkedFrom as { node: string }).node = 'zz'));
      const got = await s.getNode('n1');
      tamper(() => ((got as { output: string }).output = 'changed'));
      tamper(() => ((got?.metadata?.['obj'] as { k: string }).k = 'w'));
      tamper(() => (got?.reads as string[]).push('n2'));
      const r = await s.getSession('a');
      tamper(() => ((r as { version: number }).version = 99));
      tamper(() => (((r?.forkedFrom ?? {}) as { node: string }).node = 'zz'));
      const callees = await s.calleesOf('n1');
      tamper(() => (callees as string[]).push('evil'));
      tamper(() => (callees as string[]).splice(0, 1));
      const sessions = await s.listSessions();
      tamper(() => (sessions as string[]).push('evil'));
      const roots = await s.rootsOf('a');
      tamper(() => (roots as string[]).pop());
      expect(await snapshot(s, ['n1', 'n2'])).toBe(before);
      expect((await s.getNode('n1'))?.output).toBe('text of n1');
    });

    it('concurrent writes from the same version: exactly one wins, the others conflict and store nothing', async () => {
      const s = await makeStore();
      const v1 = await seed(s, 'a', [node('root', 'a', 0)]);
      const k = 8;
      const results = await Promise.allSettled(
        Array.from({ length: k }, (_, i) =>
          s.write({ expected: v1, next: rec('a', 2, { head: `w${i}`, nextSeq: 2 }), nodes: [node(`w${i}`, 'a', 1, { predecessor: 'root' })] }),
        ),
      );
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DagConflictError);
      const w = won[0] ?? -1;
      expect((await s.getSession('a'))?.head).toBe(`w${w}`);
      expect([...(await s.childrenOf('root'))]).toEqual([`w${w}`]);
      for (let i = 0; i < k; i++) expect((await s.getNode(`w${i}`)) === undefined).toBe(i !== w);
    });

    it('concurrent creates of one session: exactly one wins', async () => {
      const s = await makeStore();
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, (_, i) => s.write({ expected: null, next: rec('a', 1, { head: `c${i}`, nextSeq: 1 }), nodes: [node(`c${i}`, 'a', 0)] })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect([...(await s.rootsOf('a'))]).toHaveLength(1);
      expect([...(await s.listSessions())]).toEqual(['a']);
    });

    it('concurrent writes to different sessions all succeed', async () => {
      const s = await makeStore();
      await Promise.all(Array.from({ length: 6 }, (_, i) => seed(s, `s${i}`, [node(`x${i}`, `s${i}`, 0)])));
      expect([...(await s.listSessions())]).toEqual(['s0', 's1', 's2', 's3', 's4', 's5']);
      for (let i = 0; i < 6; i++) expect([...(await s.rootsOf(`s${i}`))]).toEqual([`x${i}`]);
    });

    it('a long run of writes keeps every version and node', async () => {
      const s = await makeStore();
      let r = await seed(s, 'a', [node('n0', 'a', 0)]);
      for (let i = 1; i <= 40; i++) {
        const next = rec('a', r.version + 1, { head: `n${i}`, nextSeq: i + 1 });
        await s.write({ expected: r, next, nodes: [node(`n${i}`, 'a', i, { predecessor: `n${i - 1}` })] });
        r = next;
      }
      expect((await s.getSession('a'))?.version).toBe(41);
      for (let i = 0; i < 40; i++) expect([...(await s.childrenOf(`n${i}`))]).toEqual([`n${i + 1}`]);
    });

    it('runs the DAG operations: append, tool calls, retry, branch view', async () => {
      const s = await makeStore();
      const opts = { clock: () => 42 };
      await createSession(s, 'ops');
      const q = await appendNode(s, 'ops', { role: 'user', output: 'q' }, opts);
      const a = await appendNode(s, 'ops', { role: 'assistant', output: 'a' }, opts);
      const t = await appendNode(s, 'ops', { role: 'tool', name: 'ls', input: { p: '.' }, output: 'x', caller: a.id }, opts);
      const q2 = await retryNode(s, 'ops', q.id, opts);
      expect((await branchView(s, a.id)).map((n) => n.id)).toEqual([q.id, a.id, t.id]);
      expect(await siblingIndex(s, q2.id)).toEqual({ index: 2, total: 2, ids: [q.id, q2.id] });
      expect((await s.getSession('ops'))?.head).toBe(q2.id);
    });
  });
}
