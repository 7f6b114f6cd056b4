import { spawnSync } from 'node:child_process';
import { appendNode, canonicalJson, createSession, DagConflictError } from '@ctxgit/dag';
import type { Node, SessionRecord } from '@ctxgit/dag';
import { describe, expect, test } from 'vitest';
import { GitError } from '../src/git/errors.js';
import type { GitContext } from '../src/git/git-context.js';
import { openGit } from '../src/git/open-git.js';
import { GitNodeStore } from '../src/store/git-node-store.js';
import type { DagSnapshot } from '../src/store/session-node-view.js';
import { listRefs } from '../src/git/list-refs.js';
import { readCommitObject } from '../src/git/read-commit-object.js';
import { writeCommit } from '../src/git/write-commit.js';
import { writeTree } from '../src/git/write-tree.js';
import { FaultFs } from './git-fault-fs.js';
import { FS_KINDS, fsckStrict, git, simulatedProcesses, tempRepoDir, testSuffix } from './git-fixtures.js';

const CLOCK = (): number => 1_700_000_000_000;
const rec = (id: string, version: number, extra: Partial<SessionRecord> = {}): SessionRecord => ({ id, head: null, nextSeq: 0, agentRunning: false, version, ...extra });
const node = (id: string, session: string, seq: number, extra: Partial<Node> = {}): Node => ({ id, session, seq, createdAt: 1_700_000_000_000 + seq, role: 'user', output: `text of ${id}`, ...extra });

async function countObjects(ctx: GitContext): Promise<number> {
  let n = 0;
  for (const dir of (await ctx.fs.promises.readdir(`${ctx.gitdir}/objects`)).map(String)) {
    if (/^[0-9a-f]{2}$/u.test(dir)) n += (await ctx.fs.promises.readdir(`${ctx.gitdir}/objects/${dir}`)).length;
  }
  return n;
}

/** Appends `n` nodes to session `s` in a chain, one write each; returns the last record. */
async function chain(store: GitNodeStore, s: string, n: number, from: SessionRecord | null = null): Promise<SessionRecord> {
  let r = from;
  for (let i = 0; i < n; i++) {
    const seq = r?.nextSeq ?? 0;
    const id = `${s}-${seq}`;
    const next = rec(s, (r?.version ?? 0) + 1, { head: id, nextSeq: seq + 1 });
    await store.write({ expected: r, next, nodes: [node(id, s, seq, r?.head == null ? {} : { predecessor: r.head })] });
    r = next;
  }
  if (r === null) throw new Error('n must be > 0');
  return r;
}

describe.each(FS_KINDS)('GitNodeStore layout on $name', (kind) => {
  test('same writes, same commit ids (deterministic with an injected clock)', async () => {
    const heads: (string | null)[] = [];
    for (let i = 0; i < 2; i++) {
      const store = new GitNodeStore(await kind.open(), { clock: CLOCK });
      await chain(store, 'chat-42', 3);
      heads.push(await store.head('chat-42'));
    }
    expect(heads[0]).toBe(heads[1]);
    expect(heads[0]).toBe('f5cf564cc1efad33aae53b7a3ad8143a76b5d817');
  });

  test('nodes are canonical JSON: key order does not change the blob', async () => {
    const store = new GitNodeStore(await kind.open(), { clock: CLOCK });
    const n = node('n1', 'a', 0, { metadata: { z: 1, a: { y: [2, { c: 3, b: 4 }] } } });
    const shuffled = { metadata: { a: { y: [2, { b: 4, c: 3 }] }, z: 1 }, output: n.output, role: n.role, createdAt: n.createdAt, seq: 0, session: 'a', id: 'n1' } as Node;
    await store.write({ expected: null, next: rec('a', 1), nodes: [shuffled] });
    const oid = await store.nodeObjectIn('a', 'n1');
    const other = new GitNodeStore(await kind.open(), { clock: CLOCK });
    await other.write({ expected: null, next: rec('a', 1), nodes: [n] });
    expect(await other.nodeObjectIn('a', 'n1')).toBe(oid);
    expect(canonicalJson(await store.getNode('n1'))).toBe(canonicalJson(n));
  });

  test('an append writes the same number of objects at 10 nodes as at 300', async () => {
    const store = new GitNodeStore(await kind.open(), { clock: CLOCK });
    const perAppend: number[] = [];
    let r = await chain(store, 's', 1);
    for (let i = 1; i <= 300; i++) {
      const measured = i === 10 || i === 300;
      const before = measured ? await countObjects(store.ctx) : 0;
      r = await chain(store, 's', 1, r);
      if (measured) perAppend.push((await countObjects(store.ctx)) - before);
    }
    // blob + nodes/<a>/<b> (2 trees) + nodes + children/<a>/<b>/<parent> (3 trees) + children + record blob
    // + root tree + commit = 11
    expect(perAppend).toEqual([11, 11]);
  });

  test('names that are not path-safe are stored under an encoded, reversible segment', async () => {
    const store = new GitNodeStore(await kind.open(), { clock: CLOCK });
    const names = ['a/b', '.git', 'é 1', '..', '%41'];
    for (const [i, s] of names.entries()) await store.write({ expected: null, next: rec(s, 1, { head: `r${i}`, nextSeq: 1 }), nodes: [node(`r${i}`, s, 0)] });
    expect([...(await store.listSessions())]).toEqual(['%41', '..', '.git', 'a/b', 'é 1']);
    expect((await store.getSession('a/b'))?.head).toBe('r0');
    expect([...(await store.rootsOf('é 1'))]).toEqual(['r2']);
  });

  test('a write refused by a conflict leaves no trace in the ref history', async () => {
    const store = new GitNodeStore(await kind.open(), { clock: CLOCK });
    const v1 = await chain(store, 'a', 1);
    const head = await store.head('a');
    await expect(store.write({ expected: rec('a', 0), next: rec('a', 1), nodes: [] })).rejects.toBeInstanceOf(DagConflictError);
    await expect(store.write({ expected: null, next: rec('a', 1), nodes: [] })).rejects.toBeInstanceOf(DagConflictError);
    expect(await store.head('a')).toBe(head);
    expect((await store.getSession('a'))?.version).toBe(v1.version);
  });
});

describe.each(FS_KINDS)('GitNodeStore per-session refs on $name', (kind) => {
  test('each session has its own DAG ref: a write to one never moves another', async () => {
    const store = new GitNodeStore(await kind.open(), { clock: CLOCK });
    await chain(store, 'a', 2);
    const a = await store.head('a');
    await chain(store, 'b', 3);
    expect(await store.head('a')).toBe(a);
    expect(await listRefs(store.ctx, 'refs/ctxgit/')).toEqual(['refs/ctxgit/sessions/a/dag', 'refs/ctxgit/sessions/b/dag']);
    expect(await store.nodeIn('a', 'b-0')).toBeUndefined();
    expect((await store.nodeIn('b', 'b-0'))?.session).toBe('b');
  });

  test('a fork starts from its source tree: it reads every node it can reach, the source reads none of its nodes', async () => {
    const store = new GitNodeStore(await kind.open(), { clock: CLOCK });
    const a = await chain(store, 'a', 3);
    const sourceHead = await store.head('a');
    const fork = rec('f', 1, { head: 'a-1', nextSeq: 2, forkedFrom: { session: 'a', node: 'a-1' } });
    await store.write({ expected: null, next: fork, nodes: [] });
    await store.write({ expected: fork, next: rec('f', 2, { head: 'f-2', nextSeq: 3, forkedFrom: { session: 'a', node: 'a-1' } }), nodes: [node('f-2', 'f', 2, { predecessor: 'a-1' })] });
    const first = await readCommitObject(store.ctx, (await store.head('f')) as string);
    expect((await readCommitObject(store.ctx, first.parents[0] as string)).parents).toEqual([sourceHead]);
    expect((await store.nodeIn('f', 'a-0'))?.output).toBe('text of a-0');
    expect(await store.nodeObjectIn('f', 'a-0')).toBe(await store.nodeObjectIn('a', 'a-0'));
    expect([...(await store.childrenIn('f', 'a-1'))]).toEqual(['a-2', 'f-2']);
    expect([...(await store.childrenIn('a', 'a-1'))]).toEqual(['a-2']);
    expect([...(await store.childrenOf('a-1'))]).toEqual(['a-2', 'f-2']);
    expect([...(await store.rootsOf('f'))]).toEqual([]);
    expect([...(await store.rootsOf('a'))]).toEqual(['a-0']);
    expect((await store.getSession('a'))?.version).toBe(a.version);
  });

  test('the commit index: entries in the session tree, each indexed commit a parent of the DAG commit', async () => {
    const ctx = await kind.open();
    const store = new GitNodeStore(ctx, { clock: CLOCK });
    const r = await chain(store, 's', 2);
    const c = await writeCommit(ctx, { tree: await writeTree(ctx, []), parents: [], message: 'x\n', author: { name: 'a', email: 'b', timestamp: 0, timezoneOffset: 0 } });
    const before = await store.head('s');
    await store.writeWithIndex('s', null, [{ node: 's-1', commit: c }]);
    expect(await store.commitAt('s', 's-1')).toBe(c);
    expect(await store.commitAt('s', 's-0')).toBeUndefined();
    expect((await readCommitObject(ctx, (await store.head('s')) as string)).parents).toEqual([before, c]);
    expect((await store.getSession('s'))?.version).toBe(r.version);
    await expect(store.writeWithIndex('missing', null, [{ node: 's-1', commit: c }])).rejects.toMatchObject({ code: 'E_DAG_SESSION_NOT_FOUND' });
  });

  test('a snapshot: reads see one state of the session, its own writes included; a write from an overtaken snapshot is checked against the ref', async () => {
    const ctx = await kind.open();
    const store = new GitNodeStore(ctx, { clock: CLOCK });
    const other = new GitNodeStore(ctx, { clock: CLOCK }); // another writer (its own state)
    const v1 = await chain(store, 's', 1);
    const snapshot: DagSnapshot = new Map();
    expect((await store.getSession('s', snapshot))?.version).toBe(1);
    const v2 = await chain(other, 's', 1, v1);
    // the snapshot still shows the state it read first; a read without it reads the ref
    expect((await store.getSession('s', snapshot))?.version).toBe(1);
    expect(await store.nodeIn('s', 's-1', snapshot)).toBeUndefined();
    expect((await store.getSession('s'))?.version).toBe(2);
    // a write built on the snapshot loses the swap, reads the ref again and is refused, nothing written
    const head = await store.head('s');
    await expect(store.write({ expected: v1, next: rec('s', 2, { head: 'x', nextSeq: 2 }), nodes: [node('x', 's', 1, { predecessor: 's-0' })] }, undefined, snapshot)).rejects.toBeInstanceOf(DagConflictError);
    expect(await store.head('s')).toBe(head);
    // the snapshot now holds the ref's state: a write built on it goes through, and its reads see that write
    expect((await store.getSession('s', snapshot))?.version).toBe(2);
    await store.write({ expected: v2, next: rec('s', 3, { head: 's-2', nextSeq: 3 }), nodes: [node('s-2', 's', 2, { predecessor: 's-1' })] }, undefined, snapshot);
    expect((await store.nodeIn('s', 's-2', snapshot))?.output).toBe('text of s-2');
    expect(snapshot.get('refs/ctxgit/sessions/s/dag')?.head).toBe(await store.head('s'));
  });
});

describe('GitNodeStore options', () => {
  test('bad options are refused when the store is made', async () => {
    const ctx = await openGit({ memory: true });
    expect(() => new GitNodeStore(ctx, { maxAttempts: 0 })).toThrow(expect.objectContaining({ code: 'E_DAG_INVALID_ARGUMENT' }) as Error);
    expect(() => new GitNodeStore(ctx, { author: { name: 'a <b>', email: 'x' } })).toThrow(expect.objectContaining({ code: 'E_GIT_INVALID_ARGUMENT' }) as Error);
    const store = new GitNodeStore(ctx, { clock: () => Number.NaN });
    await expect(store.write({ expected: null, next: rec('a', 1), nodes: [] })).rejects.toMatchObject({ code: 'E_DAG_INVALID_ARGUMENT' });
    expect(await store.head('a')).toBeNull();
  });

  test('a custom author shows in the DAG commits', async () => {
    const store = new GitNodeStore(await openGit({ memory: true }), { author: { name: 'Bot', email: 'bot@example.com' }, clock: () => 5_000 });
    await chain(store, 'a', 1);
    const head = await store.head('a');
    if (head === null) throw new Error('no head');
    expect((await readCommitObject(store.ctx, head)).author).toEqual({ name: 'Bot', email: 'bot@example.com', timestamp: 5, timezoneOffset: 0 });
  });
});

describe('GitNodeStore seen by the git binary', () => {
  test('fsck --strict is clean, git log lists one commit per write, git show prints nodes and records', async () => {
    const kind = FS_KINDS.find((k) => k.name === 'disk');
    if (kind === undefined) throw new Error('no disk kind');
    const ctx = await kind.open();
    const store = new GitNodeStore(ctx, { clock: CLOCK });
    await createSession(store, 'chat-42');
    const q = await appendNode(store, 'chat-42', { role: 'user', output: 'What is in /tmp?' }, { clock: () => 1 });
    const a = await appendNode(store, 'chat-42', { role: 'assistant', output: 'Let me look.' }, { clock: () => 2 });
    const t = await appendNode(store, 'chat-42', { role: 'tool', name: 'ls', input: { path: '/tmp' }, output: 'a.txt', caller: a.id }, { clock: () => 3 });
    expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
    const log = git(ctx, ['log', '--format=%s', 'refs/ctxgit/sessions/chat-42/dag']).trim().split('\n');
    expect(log).toEqual(['dag: chat-42 v4 +1 node', 'dag: chat-42 v3 +1 node', 'dag: chat-42 v2 +1 node', 'dag: chat-42 v1']);
    expect(git(ctx, ['log', '-1', '--format=%(trailers:key=Node,valueonly)', 'refs/ctxgit/sessions/chat-42/dag']).trim()).toBe(t.id);
    const files = git(ctx, ['ls-tree', '-r', '--name-only', 'refs/ctxgit/sessions/chat-42/dag']).trim().split('\n');
    const nodeFile = files.find((f) => f.startsWith('nodes/') && f.endsWith(`/${q.id}.json`));
    if (nodeFile === undefined) throw new Error(`no node file in ${files.join(', ')}`);
    const hash = spawnSync('sha1sum', { input: q.id, encoding: 'utf8' }).stdout.slice(0, 4);
    expect(nodeFile).toBe(`nodes/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${q.id}.json`);
    expect(JSON.parse(git(ctx, ['show', `refs/ctxgit/sessions/chat-42/dag:${nodeFile}`]))).toEqual(await store.getNode(q.id));
    expect(git(ctx, ['show', `refs/ctxgit/sessions/chat-42/dag:${nodeFile}`])).toBe(canonicalJson(await store.getNode(q.id)));
    expect(files.filter((f) => f.startsWith('children/')).map((f) => f.split('/').slice(3).join('/'))).toEqual([`${q.id}/${String(a.seq).padStart(16, '0')}.${a.id}`]);
    expect(files.filter((f) => f.startsWith('callees/')).map((f) => f.split('/').slice(3).join('/'))).toEqual([`${a.id}/${String(t.seq).padStart(16, '0')}.${t.id}`]);
    expect(files).toContain('session.json');
    expect(JSON.parse(git(ctx, ['show', 'refs/ctxgit/sessions/chat-42/dag:session.json']))).toEqual(await store.getSession('chat-42'));
    expect(files.filter((f) => f.startsWith('roots/'))).toEqual([`roots/${String(q.seq).padStart(16, '0')}.${q.id}`]);
  });
});

describe('GitNodeStore under faults and crashes', () => {
  /** State of the store as plain text, for before/after comparisons. */
  async function state(store: GitNodeStore, ids: readonly string[]): Promise<string> {
    const out: unknown[] = [await store.listSessions(), await store.head('s')];
    for (const s of await store.listSessions()) out.push(await store.getSession(s), await store.rootsOf(s));
    for (const id of ids) out.push(await store.getNode(id), await store.childrenOf(id));
    return JSON.stringify(out);
  }

  test.each([
    ['memfs', 'EIO', false],
    ['memfs', 'ENOSPC', false],
    ['memfs', 'EACCES', false],
    ['disk', 'EIO', true],
  ] as const)('every operation of an append failing, once or as a crash, on %s with %s: typed error, old state, retry succeeds', async (_name, errno, disk) => {
    // fsync on: the datasync calls are operations that can fail too
    const base = disk ? await openGit({ dir: await tempRepoDir(), fsync: true, tempSuffix: testSuffix }) : await openGit({ memory: true, tempSuffix: testSuffix });
    const faults = new FaultFs(base.fs);
    const processes = simulatedProcesses();
    const open = (): Promise<GitContext> => openGit({ ...(disk ? { dir: base.gitdir } : { memory: true as const }), fs: faults.fs, fsync: true, tempSuffix: testSuffix, identity: processes.next() });
    let store = new GitNodeStore(await open(), { clock: CLOCK, maxAttempts: 2, sleep: async () => undefined });
    let r = await chain(store, 's', 2);
    // count the operations of one append
    const before = faults.count;
    r = await chain(store, 's', 1, r);
    const opsPerAppend = faults.count - before;
    expect(opsPerAppend).toBeGreaterThan(20);
    let survived = 0;
    // on disk only crashes (single faults are the same code paths, covered on memfs), to keep the run short
    for (const crash of disk ? [true] : [false, true]) {
      for (let k = 0; k < opsPerAppend; k++) {
        const ids = [r.head ?? '', `s-${r.nextSeq}`];
        const snapshot = await state(store, ids);
        faults.arm(k, crash, errno);
        const attempt = chain(store, 's', 1, r);
        const outcome = await attempt.then(() => 'ok' as const, (err: unknown) => err);
        faults.disarm();
        if (outcome === 'ok') {
          // the fault hit a read that a retry inside the call absorbed, or a cleanup: the append is complete
          r = (await store.getSession('s')) ?? r;
          continue;
        }
        expect(outcome).toBeInstanceOf(GitError);
        expect(outcome).toMatchObject({ code: 'E_GIT_IO', data: { errno } });
        // a crash: reopen as a new process would (the writer's lock, if left, names a dead process: taken over at once)
        store = new GitNodeStore(await open(), { clock: CLOCK, maxAttempts: 2, sleep: async () => undefined });
        expect(await state(store, ids)).toBe(snapshot);
        if (disk) expect(fsckStrict(base)).toEqual({ status: 0, problems: [] });
        r = await chain(store, 's', 1, r);
        expect((await store.getNode(`s-${r.nextSeq - 1}`))?.predecessor).toBe(ids[0]);
        survived++;
      }
    }
    expect(survived).toBeGreaterThan(disk ? opsPerAppend / 2 : opsPerAppend);
    expect((await store.getSession('s'))?.version).toBe(r.version);
  });
});
