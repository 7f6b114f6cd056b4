import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IdGenerator, Node } from '@ctxgit/dag';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloneRepo, openRepo } from '../../src/index.js';
import { listRefs, readRef } from '../../src/git/index.js';
import type { Repo } from '../../src/index.js';
import { stepClock, tempDir } from '../helpers.js';
import { fsck, git, startGitServer } from './git-server.js';
import type { GitServer } from './git-server.js';

const KILLER = fileURLToPath(new URL('./fixtures/sync-killer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MODEL = { model: 'openai:gpt-4o' } as const;

/** Node ids of one writer: unique across writers, so a re-applied node keeps its id. */
const idsOf =
  (writer: string): IdGenerator =>
  (session, seq) =>
    `${writer}-${session}-${seq}`;

/** A question, a commit, an answer (the pending turn a backend then syncs); the two node ids. */
async function turn(repo: Repo, session: string, text: string, ids?: IdGenerator): Promise<[string, string]> {
  const s = await repo.openSession(session, ids === undefined ? {} : { ids });
  const q = await s.append({ role: 'user', output: `question ${text}` });
  await s.commit();
  const a = await s.append({ role: 'assistant', output: `answer ${text}` });
  return [q.id, a.id];
}

/** The nodes along a session's head chain, oldest first. */
async function chain(repo: Repo, session: string): Promise<Node[]> {
  const out: Node[] = [];
  for (let id = (await (await repo.openSession(session)).head()) ?? undefined; id !== undefined; ) {
    const node = await repo.store.nodeIn(session, id);
    if (node === undefined) throw new Error(`missing node ${id} of ${session}`);
    out.unshift(node);
    id = node.predecessor;
  }
  return out;
}

/** A node as it was written, but the two fields a re-apply may change: its seq and its predecessor. */
const content = ({ seq: _seq, predecessor: _pred, ...rest }: Node): Omit<Node, 'seq' | 'predecessor'> => rest;

/** The server's refs, to put them back between runs. */
function serverRefs(gitdir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of git(gitdir, ['for-each-ref', '--format=%(objectname) %(refname)']).trim().split('\n')) {
    const [oid, ref] = line.split(' ');
    if (oid !== undefined && ref !== undefined && ref !== '') out.set(ref, oid);
  }
  return out;
}

function resetServer(gitdir: string, saved: ReadonlyMap<string, string>): void {
  for (const ref of serverRefs(gitdir).keys()) if (!saved.has(ref)) git(gitdir, ['update-ref', '-d', ref]);
  for (const [ref, oid] of saved) git(gitdir, ['update-ref', ref, oid]);
}

describe('sync through a git server', () => {
  let server: GitServer;
  beforeAll(async () => {
    server = await startGitServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  test('re-applying is exact: with ids of their own, the loser’s nodes keep their ids and content (only seq and the first predecessor move)', async () => {
    const remote = { url: server.url };
    const a = await openRepo({ dir: join(tempDir(), 'a.git'), fsync: false, clock: stepClock() });
    await a.createSession('exact', MODEL);
    await turn(a, 'exact', '0', idsOf('a'));
    await a.sync(remote, { session: 'exact', ids: idsOf('a') });
    const b = await cloneRepo({ dir: join(tempDir(), 'b.git'), fsync: false, clock: stepClock(1_800_000_000_000), remote, sessions: ['exact'] });

    const mineA = await turn(a, 'exact', 'a', idsOf('a'));
    const mineB = await turn(b, 'exact', 'b', idsOf('b'));
    const before = await Promise.all(mineB.map(async (id) => (await b.store.nodeIn('exact', id)) as Node));
    await a.sync(remote, { session: 'exact', ids: idsOf('a') });
    const synced = await b.sync(remote, { session: 'exact', ids: idsOf('b') });
    expect(synced.reapplied).toBe(true);
    expect(synced.conflicts).toBeGreaterThanOrEqual(0);
    expect(synced.renamed).toEqual({});

    const check = await cloneRepo({ dir: join(tempDir(), 'check.git'), fsync: false, remote, sessions: ['exact'] });
    const along = await chain(check, 'exact');
    expect(along.map((n) => n.id).slice(-4)).toEqual([...mineA, ...mineB]);
    const after = along.slice(-2);
    expect(after.map(content)).toEqual(before.map(content));
    // seqs follow the remote's; the question goes after a's answer, the answer after the question as before
    expect(after[0]?.predecessor).toBe(mineA[1]);
    expect(after[1]?.predecessor).toBe(mineB[0]);
    expect(after.map((n) => n.seq)).toEqual([before[1]!.seq + 1, before[1]!.seq + 2]);
    expect((await (await check.openSession('exact')).commit()).items.map((i) => i.key).slice(-4)).toEqual([...mineA, ...mineB]);

    // with the default ids (from session and seq) both wrote the same ids: only the taken ones are renamed, and said so
    const c = await cloneRepo({ dir: join(tempDir(), 'c.git'), fsync: false, clock: stepClock(1_900_000_000_000), remote, sessions: ['exact'] });
    const mineC = await turn(c, 'exact', 'c');
    const mineB2 = await turn(b, 'exact', 'b2');
    await b.sync(remote, { session: 'exact' });
    const renamed = await c.sync(remote, { session: 'exact' });
    expect(Object.keys(renamed.renamed).sort()).toEqual([...mineC].sort());
    const tail = (await chain(await cloneRepo({ dir: join(tempDir(), 'check2.git'), fsync: false, remote, sessions: ['exact'] }), 'exact')).slice(-4);
    expect(tail.map((n) => n.id)).toEqual([...mineB2, ...mineC.map((id) => renamed.renamed[id])]);
    expect(tail.map((n) => n.output)).toEqual(['question b2', 'answer b2', 'question c', 'answer c']);
    expect(fsck(server.gitdir).problems).toEqual([]);
  });

  test('a forked session syncs on its own: two backends race on the fork while its source moves; nothing lost, the source untouched', async () => {
    const remote = { url: server.url };
    const a = await openRepo({ dir: join(tempDir(), 'a.git'), fsync: false, clock: stepClock() });
    await a.createSession('src', MODEL);
    const [, srcAnswer] = await turn(a, 'src', 'src 0', idsOf('a'));
    await turn(a, 'src', 'src 1', idsOf('a'));
    await a.sync(remote, { session: 'src', ids: idsOf('a') });
    // forked below the source's head, and written before the source's sync: its DAG descends from the source's
    await (await a.openSession('src', { ids: idsOf('a') })).fork('fork', { at: srcAnswer });
    const fork0 = await turn(a, 'fork', 'fork 0', idsOf('a'));
    const first = await a.sync(remote, { session: 'fork', ids: idsOf('a') });
    expect(first.reapplied).toBe(false);

    // b takes only the fork; the objects it shares with its source come along, the source's refs do not
    const b = await cloneRepo({ dir: join(tempDir(), 'b.git'), fsync: false, clock: stepClock(1_800_000_000_000), remote, sessions: ['fork'] });
    expect(await b.listSessions()).toEqual(['fork']);
    expect((await chain(b, 'fork')).map((n) => n.output)).toEqual(['question src 0', 'answer src 0', 'question fork 0', 'answer fork 0']);

    const forkB = await turn(b, 'fork', 'fork b', idsOf('b'));
    const forkA = await turn(a, 'fork', 'fork a', idsOf('a'));
    const srcA = await turn(a, 'src', 'src 2', idsOf('a'));
    await a.sync(remote, { session: 'fork', ids: idsOf('a') });
    await a.sync(remote, { session: 'src', ids: idsOf('a') });
    const synced = await b.sync(remote, { session: 'fork', ids: idsOf('b') });
    expect(synced.reapplied).toBe(true);
    expect(synced.renamed).toEqual({});
    // only the fork's own pending writes were re-applied: the source's DAG commits below it stayed as they were
    expect(await b.listSessions()).toEqual(['fork']);

    const check = await cloneRepo({ dir: join(tempDir(), 'check.git'), fsync: false, remote, sessions: ['src', 'fork'] });
    const forkLine = await chain(check, 'fork');
    expect(forkLine.map((n) => n.output)).toEqual(['question src 0', 'answer src 0', 'question fork 0', 'answer fork 0', 'question fork a', 'answer fork a', 'question fork b', 'answer fork b']);
    expect(forkLine.map((n) => n.id).slice(-6)).toEqual([...fork0, ...forkA, ...forkB]);
    const srcLine = await chain(check, 'src');
    expect(srcLine.map((n) => n.output)).toEqual(['question src 0', 'answer src 0', 'question src 1', 'answer src 1', 'question src 2', 'answer src 2']);
    expect(srcLine.map((n) => n.id).slice(-2)).toEqual(srcA);
    // the fork's nodes are not the source's, and the other way round
    for (const id of [...forkA, ...forkB]) expect(await check.store.nodeIn('src', id)).toBeUndefined();
    for (const id of srcA) expect(await check.store.nodeIn('fork', id)).toBeUndefined();
    expect((await (await check.openSession('fork')).commit()).items.map((i) => i.key)).toEqual(forkLine.map((n) => n.id));
    expect(fsck(server.gitdir).problems).toEqual([]);
    expect(fsck(check.git.gitdir).problems).toEqual([]);
  });
});

/** Every file under a directory (none when it is missing). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

/** What each write of a killer run named (its `write <n> <path>` lines), in order. */
function writesOf(out: string): string[] {
  return [...out.matchAll(/^write \d+ (.*)$/gmu)].map((m) => m[1] ?? '');
}

/** The paths a killer run in `dir` wrote, sorted, without `dir`, lock nonces and temporary names. */
function writtenPaths(out: string, dir: string): string[] {
  return writesOf(out)
    .map((path) => path.replaceAll(dir, '').replace(/tmp_obj_[^\s/]+/gu, 'tmp_obj').replace(/~(owner|new)-[0-9a-f]+/gu, '~').replace(/[0-9a-f]{8}-\d+_[0-9a-f-]+/gu, 'X'))
    .sort();
}

/** Runs the killer fixture to its end or its kill. */
function runKiller(url: string, dir: string, session: string, writer: string, killAt: number): Promise<{ signal: NodeJS.Signals | null; code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--conditions=@ctxgit/source', '--import', 'tsx', KILLER, url, dir, session, writer, String(killAt)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out })));
}

describe('a sync killed (SIGKILL) in the middle of its rebase', () => {
  let server: GitServer;
  beforeAll(async () => {
    server = await startGitServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  test('leaves the session’s DAG ref at its local tip or at the finished rebase; opening sweeps the work ref; the next sync delivers the turn once, ids kept', async () => {
    const remote = { url: server.url };
    const dag = 'refs/ctxgit/sessions/chat/dag';
    const a = await openRepo({ dir: join(tempDir(), 'a.git'), fsync: false, clock: stepClock() });
    await a.createSession('chat', MODEL);
    await turn(a, 'chat', '0', idsOf('a'));
    await a.sync(remote, { session: 'chat', ids: idsOf('a') });
    const bDir = join(tempDir(), 'b.git');
    const b = await cloneRepo({ dir: bDir, fsync: false, clock: stepClock(1_800_000_000_000), remote, sessions: ['chat'] });
    const mineB = await turn(b, 'chat', 'b', idsOf('b'));
    const mineA = await turn(a, 'chat', 'a', idsOf('a'));
    await a.sync(remote, { session: 'chat', ids: idsOf('a') });
    // b's files are copied below: its background roll-up is done first, so every copy is of the same files
    await b.settled();
    const localTip = await readRef(b.git, dag);
    const saved = serverRefs(server.gitdir);
    const copy = (): string => {
      const dir = join(tempDir(), 'b.git');
      cpSync(bDir, dir, { recursive: true });
      return dir;
    };

    // a run without a kill lists the writes from the work ref's creation to the end of the sync
    const dryDir = copy();
    const dry = await runKiller(server.url, dryDir, 'chat', 'b', Number.POSITIVE_INFINITY);
    expect(dry.code, dry.out).toBe(0);
    const writes = writesOf(dry.out);
    expect(writes.length).toBeGreaterThan(3);
    // the kill points are the dry run's writes: a second dry run makes the same ones (the same objects, so the same
    // fan-out directories), only concurrent ones in another order, and with other lock nonces and temporary names
    resetServer(server.gitdir, saved);
    const againDir = copy();
    const again = await runKiller(server.url, againDir, 'chat', 'b', Number.POSITIVE_INFINITY);
    expect(again.code, again.out).toBe(0);
    expect(writtenPaths(again.out, againDir)).toEqual(writtenPaths(dry.out, dryDir));
    const dagMoved = writes.findIndex((w) => w.includes('/sessions/chat/dag') && !w.includes('remotes'));
    expect(dagMoved).toBeGreaterThan(0);
    // in CI: the first write, the last ones before the DAG ref's move, the move, and a few later (push, re-commit);
    // CTXGIT_SYNC_KILLS=all kills at every write
    const inWork = writes.map((w, i) => (w.includes('ctxgit-sync') && i < dagMoved ? i : -1)).filter((i) => i >= 0);
    const picks = new Set<number>([0, inWork.at(-1) ?? 0, dagMoved - 1, dagMoved, dagMoved + 1]);
    for (let k = 1; k <= 3; k++) picks.add(dagMoved + Math.round(((writes.length - 1 - dagMoved) * k) / 3));
    if (process.env['CTXGIT_SYNC_KILLS'] === 'all') for (let i = 0; i < writes.length; i++) picks.add(i);
    const points = [...picks].filter((k) => k >= 0 && k < writes.length).sort((x, y) => x - y);

    let untouched = 0;
    let rebased = 0;
    for (const k of points) {
      resetServer(server.gitdir, saved);
      const dir = copy();
      const killed = await runKiller(server.url, dir, 'chat', 'b', k);
      expect(killed.signal, `kill at write ${k}: ${killed.out}`).toBe('SIGKILL');
      const again = await openRepo({ dir, fsync: false, clock: stepClock(1_900_000_000_000) });
      expect(await listRefs(again.git, 'refs/ctxgit-sync/')).toEqual([]);
      expect(filesUnder(join(dir, 'refs', 'ctxgit-sync')), 'no lock file of the work ref left').toEqual([]);
      expect(fsck(dir).problems).toEqual([]);
      const tip = await readRef(again.git, dag);
      if (tip === localTip) untouched++;
      else {
        // the rebase was complete when the ref moved: b's nodes after a's, with their ids
        rebased++;
        expect((await chain(again, 'chat')).map((n) => n.id).slice(-4)).toEqual([...mineA, ...mineB]);
      }
      const synced = await again.sync(remote, { session: 'chat', ids: idsOf('b') });
      expect(synced.renamed).toEqual({});
      const check = await cloneRepo({ dir: join(tempDir(), 'check.git'), fsync: false, remote, sessions: ['chat'] });
      const along = await chain(check, 'chat');
      expect(along.map((n) => n.output), `kill at write ${k}`).toEqual(['question 0', 'answer 0', 'question a', 'answer a', 'question b', 'answer b']);
      expect(along.map((n) => n.id).slice(-4)).toEqual([...mineA, ...mineB]);
      expect((await (await check.openSession('chat')).commit()).items.map((i) => i.key)).toEqual(along.map((n) => n.id));
      expect(fsck(server.gitdir).problems).toEqual([]);
    }
    // both sides of the one move were hit
    expect(untouched).toBeGreaterThan(0);
    expect(rebased).toBeGreaterThan(0);
    process.stderr.write(`sync killed at ${points.length} of ${writes.length} writes: ${untouched} left the local tip, ${rebased} the finished rebase; all delivered once\n`);
  }, 1_800_000);
});
