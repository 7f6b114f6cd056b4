import { spawnSync } from 'node:child_process';
import { DagConflictError, appendNode, createSession } from '@ctxgit/dag';
import type { Node, SessionRecord } from '@ctxgit/dag';
import { describe, expect, test } from 'vitest';
import { canonicalJson } from '../src/canonical-json.js';
import { GitError } from '../src/git/errors.js';
import type { GitContext } from '../src/git/git-context.js';
import { openGit } from '../src/git/open-git.js';
import { GitNodeStore } from '../src/store/git-node-store.js';
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
      heads.push(await store.head());
    }
    expect(heads[0]).toBe(heads[1]);
    expect(heads[0]).toBe('6c8f888e438f61ddff75ed83cfd4c3b74b34cd69');
  });

  test('nodes are canonical JSON: key order does not change the blob', async () => {
    const store = new GitNodeStore(await kind.open(), { clock: CLOCK });
    const n = node('n1', 'a', 0, { metadata: { z: 1, a: { y: [2, { c: 3, b: 4 }] } } });
    const shuffled = { metadata: { a: { y: [2, { b: 4, c: 3 }] }, z: 1 }, output: n.output, role: n.role, createdAt: n.createdAt, seq: 0, session: 'a', id: 'n1' } as Node;
    await store.write({ expected: null, next: rec('a', 1), nodes: [shuffled] });
    const oid = await store.nodeObjectId('n1');
    const other = new GitNodeStore(await kind.open(), { clock: CLOCK });
    await other.write({ expected: null, next: rec('a', 1), nodes: [n] });
    expect(await other.nodeObjectId('n1')).toBe(oid);
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
    // + sessions/<a>/<name> (2 trees) + sessions + root tree + commit = 14
    expect(perAppend).toEqual([14, 14]);
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
    const head = await store.head();
    await expect(store.write({ expected: rec('a', 0), next: rec('a', 1), nodes: [] })).rejects.toBeInstanceOf(DagConflictError);
    await expect(store.write({ expected: null, next: rec('a', 1), nodes: [] })).rejects.toBeInstanceOf(DagConflictError);
    expect(await store.head()).toBe(head);
    expect((await store.getSession('a'))?.version).toBe(v1.version);
  });
});

describe('GitNodeStore options', () => {
  test('bad options are refused when the store is made', async () => {
    const ctx = await openGit({ memory: true });
    expect(() => new GitNodeStore(ctx, { ref: 'refs/a..b' })).toThrow(expect.objectContaining({ code: 'E_GIT_INVALID_NAME' }) as Error);
    expect(() => new GitNodeStore(ctx, { maxAttempts: 0 })).toThrow(expect.objectContaining({ code: 'E_DAG_INVALID_ARGUMENT' }) as Error);
    expect(() => new GitNodeStore(ctx, { author: { name: 'a <b>', email: 'x' } })).toThrow(expect.objectContaining({ code: 'E_GIT_INVALID_ARGUMENT' }) as Error);
    const store = new GitNodeStore(ctx, { clock: () => Number.NaN });
    await expect(store.write({ expected: null, next: rec('a', 1), nodes: [] })).rejects.toMatchObject({ code: 'E_DAG_INVALID_ARGUMENT' });
    expect(await store.head()).toBeNull();
  });

  test('a custom ref and author show in the DAG commits', async () => {
    const store = new GitNodeStore(await openGit({ memory: true }), { ref: 'refs/custom/dag', author: { name: 'Bot', email: 'bot@example.com' }, clock: () => 5_000 });
    await chain(store, 'a', 1);
    const head = await store.head();
    if (head === null) throw new Error('no head');
    const { readCommitObject } = await import('../src/git/read-commit-object.js');
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
    const log = git(ctx, ['log', '--format=%s', 'refs/ctxgit/dag']).trim().split('\n');
    expect(log).toEqual(['dag: chat-42 v4 +1 node', 'dag: chat-42 v3 +1 node', 'dag: chat-42 v2 +1 node', 'dag: chat-42 v1']);
    expect(git(ctx, ['log', '-1', '--format=%(trailers:key=Node,valueonly)', 'refs/ctxgit/dag']).trim()).toBe(t.id);
    const files = git(ctx, ['ls-tree', '-r', '--name-only', 'refs/ctxgit/dag']).trim().split('\n');
    const nodeFile = files.find((f) => f.startsWith('nodes/') && f.endsWith(`/${q.id}.json`));
    if (nodeFile === undefined) throw new Error(`no node file in ${files.join(', ')}`);
    const hash = spawnSync('sha1sum', { input: q.id, encoding: 'utf8' }).stdout.slice(0, 4);
    expect(nodeFile).toBe(`nodes/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${q.id}.json`);
    expect(JSON.parse(git(ctx, ['show', `refs/ctxgit/dag:${nodeFile}`]))).toEqual(await store.getNode(q.id));
    expect(git(ctx, ['show', `refs/ctxgit/dag:${nodeFile}`])).toBe(canonicalJson(await store.getNode(q.id)));
    expect(files.filter((f) => f.startsWith('children/')).map((f) => f.split('/').slice(3).join('/'))).toEqual([`${q.id}/${String(a.seq).padStart(16, '0')}.${a.id}`]);
    expect(files.filter((f) => f.startsWith('callees/')).map((f) => f.split('/').slice(3).join('/'))).toEqual([`${a.id}/${String(t.seq).padStart(16, '0')}.${t.id}`]);
    const record = files.find((f) => f.startsWith('sessions/') && f.endsWith('/chat-42/session.json'));
    expect(record).toBeDefined();
    expect(JSON.parse(git(ctx, ['show', `refs/ctxgit/dag:${record ?? ''}`]))).toEqual(await store.getSession('chat-42'));
    expect(files.filter((f) => f.includes('/chat-42/roots/'))).toHaveLength(1);
  });
});

describe('GitNodeStore under faults and crashes', () => {
  /** State of the store as plain text, for before/after comparisons. */
  async function state(store: GitNodeStore, ids: readonly string[]): Promise<string> {
    const out: unknown[] = [await store.listSessions(), await store.head()];
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
  }, 300_000);
});
