import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloneRepo, openRepo, RemoteAuthError, RemoteConflictError, RemoteError, RemoteUnknownSessionError } from '../../src/index.js';
import { listRefs, readRef } from '../../src/git/index.js';
import type { Repo } from '../../src/index.js';
import { stepClock, tempDir } from '../helpers.js';
import { fsck as gitFsck, git, startGitServer } from './git-server.js';
import type { GitServer } from './git-server.js';

const fsck = (gitdir: string): readonly string[] => gitFsck(gitdir).problems;

async function newRepo(): Promise<{ repo: Repo; dir: string }> {
  const dir = join(tempDir(), 'ctx.git');
  return { repo: await openRepo({ dir, fsync: false, clock: stepClock() }), dir };
}

async function turn(repo: Repo, session: string, text: string): Promise<string[]> {
  const s = await repo.openSession(session);
  const q = await s.append({ role: 'user', output: `question ${text}` });
  await s.commit();
  const a = await s.append({ role: 'assistant', output: `answer ${text}` });
  return [q.id, a.id];
}

function contextLog(gitdir: string, session: string): string[] {
  return git(gitdir, ['log', '--format=%H %s', `refs/ctxgit/sessions/${session}/context`]).trim().split('\n');
}

/** Every file under a directory, with its bytes. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

describe('sessions through a git server (git http-backend)', () => {
  let server: GitServer;
  beforeAll(async () => {
    server = await startGitServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  test('push, plain git clone --mirror, clone of one session, fetch back, open-on-first-use; fsck --strict clean', async () => {
    const remote = { url: server.url };
    const { repo: a, dir: aDir } = await newRepo();
    await a.createSession('chat', { model: 'openai:gpt-4o' });
    await a.createSession('other', { model: 'openai:gpt-4o' });
    await turn(a, 'chat', '1');
    await (await a.openSession('chat')).commit();
    await turn(a, 'other', 'x');
    const pushed = await a.push(remote);
    expect(pushed.sessions).toEqual(['chat', 'other']);
    // each session's DAG ref goes first, then its own refs
    expect(pushed.pushed.slice(0, 2)).toEqual(['refs/ctxgit/sessions/chat/dag', 'refs/ctxgit/sessions/other/dag']);
    expect(pushed.pushed).toContain('refs/ctxgit/sessions/chat/context');
    expect(fsck(server.gitdir)).toEqual([]);
    expect(git(server.gitdir, ['rev-parse', 'refs/ctxgit/sessions/chat/context']).trim()).toBe(await readRef(a.git, 'refs/ctxgit/sessions/chat/context'));

    // plain git reads the same sessions
    const mirror = join(mkdtempSync(join(tmpdir(), 'ctxgit-mirror-')), 'm.git');
    execFileSync('git', ['clone', '--quiet', '--mirror', server.url, mirror], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    expect(contextLog(mirror, 'chat')).toEqual(contextLog(aDir, 'chat'));
    expect(contextLog(mirror, 'other')).toEqual(contextLog(aDir, 'other'));
    expect(fsck(mirror)).toEqual([]);

    // a clone of one session has none of the other's refs, DAG commits or ContextCommits
    const bDir = join(tempDir(), 'b.git');
    const b = await cloneRepo({ dir: bDir, fsync: false, clock: stepClock(1_800_000_000_000), remote, sessions: ['chat'] });
    expect(await listRefs(b.git, 'refs/ctxgit/sessions/other/')).toEqual([]);
    const otherCommit = await readRef(a.git, 'refs/ctxgit/sessions/other/context');
    expect(spawnSync('git', ['--git-dir', bDir, 'cat-file', '-e', otherCommit ?? '']).status).not.toBe(0);
    const otherDag = await readRef(a.git, 'refs/ctxgit/sessions/other/dag');
    expect(otherDag).not.toBeNull();
    expect(spawnSync('git', ['--git-dir', bDir, 'cat-file', '-e', otherDag ?? '']).status).not.toBe(0);
    expect((await (await b.openSession('chat')).log()).map((c) => c.id)).toEqual((await (await a.openSession('chat')).log()).map((c) => c.id));
    expect(fsck(bDir)).toEqual([]);

    // b appends a turn and pushes it; a fetches it
    const ids = await turn(b, 'chat', '2');
    const bCommit = await (await b.openSession('chat')).commit();
    await b.push(remote, { sessions: ['chat'] });
    const fetched = await a.fetch(remote, { sessions: ['chat'] });
    expect(fetched.updated).toContain('refs/ctxgit/sessions/chat/context');
    expect(fetched.reapplied).toEqual([]);
    const chatA = await a.openSession('chat');
    expect(await chatA.head()).toBe(ids[1]);
    expect((await chatA.commit()).id).toBe(bCommit.id);
    expect(fsck(aDir)).toEqual([]);
    expect(fsck(server.gitdir)).toEqual([]);

    // a repository opened with the server as its remote fetches a session the first time it is opened
    const c = await openRepo({ dir: join(tempDir(), 'c.git'), fsync: false, remote });
    expect((await (await c.openSession('chat')).commit()).id).toBe(bCommit.id);
    await expect(c.fetch(remote, { sessions: ['nope'] })).rejects.toBeInstanceOf(RemoteUnknownSessionError);
  });

  test('two backends on one session: the loser gets a typed retryable conflict, sync re-applies its turn on top', async () => {
    const remote = { url: server.url, name: 'shared' };
    const { repo: a } = await newRepo();
    await a.createSession('race', { model: 'openai:gpt-4o' });
    await turn(a, 'race', '0');
    // the server holds other sessions (the first test's) but not this one: nothing to re-apply, only pushed
    const first = await a.sync(remote, { session: 'race' });
    expect(first.reapplied).toBe(false);
    expect(first.conflicts).toBe(0);
    const b = await cloneRepo({ dir: join(tempDir(), 'b.git'), fsync: false, clock: stepClock(1_800_000_000_000), remote, sessions: ['race'] });

    const mineA = await turn(a, 'race', 'a');
    const mineB = await turn(b, 'race', 'b');
    await a.push(remote, { sessions: ['race'] });
    const lost = await b.push(remote, { sessions: ['race'] }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(RemoteConflictError);
    expect((lost as RemoteError).code).toBe('E_REMOTE_CONFLICT');
    expect((lost as RemoteError).retryable).toBe(true);

    const synced = await b.sync(remote, { session: 'race' });
    expect(synced.reapplied).toBe(true);
    // the ids follow from (session, seq) and both appended at the same seqs: b's nodes take the next seqs' ids
    const movedB = mineB.map((id) => synced.renamed[id] ?? id);
    expect(movedB).not.toEqual(mineB);
    expect(synced.pushed).toContain('refs/ctxgit/sessions/race/context');
    // both turns are on the remote, a's first, b's re-applied after it with the same node ids
    const check = await cloneRepo({ dir: join(tempDir(), 'check.git'), fsync: false, remote, sessions: ['race'] });
    const s = await check.openSession('race');
    expect(await s.head()).toBe(movedB[1]);
    expect((await check.store.getNode(movedB[1] ?? ''))?.output).toBe('answer b');
    const chain: string[] = [];
    for (let id: string | undefined = (await s.head()) ?? undefined; id !== undefined; id = (await check.store.getNode(id))?.predecessor) chain.unshift(id);
    expect(chain.slice(-4)).toEqual([...mineA, ...movedB]);
    const latest = await s.commit();
    expect(latest.items.map((i) => i.key).slice(-4)).toEqual([...mineA, ...movedB]);
    expect(fsck(server.gitdir)).toEqual([]);

    // a syncs too: its own turn was acknowledged, it is not re-applied again
    const again = await a.sync(remote, { session: 'race' });
    expect(again.reapplied).toBe(false);
    expect(await (await a.openSession('race')).head()).toBe(movedB[1]);
  });
});

describe('credentials', () => {
  const password = 's3cret-Pa55word';
  let server: GitServer;
  beforeAll(async () => {
    server = await startGitServer({ credentials: `bot:${password}` });
  });
  afterAll(async () => {
    await server.stop();
  });

  test('come only from onAuth: refused without or with wrong ones, never in an error, the repository or its config', async () => {
    const remote = { url: server.url };
    const { repo, dir } = await newRepo();
    await repo.createSession('auth', { model: 'openai:gpt-4o' });
    await turn(repo, 'auth', '1');
    const none = await repo.push(remote).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(RemoteAuthError);
    const wrong = await repo.push(remote, { onAuth: () => ({ username: 'bot', password: 'wrong-Pa55word' }) }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(RemoteAuthError);
    expect(String((wrong as Error).message) + JSON.stringify((wrong as RemoteError).data)).not.toContain('wrong-Pa55word');
    const inUrl = await repo.push({ url: server.url.replace('http://', `http://bot:${password}@`) }).catch((e: unknown) => e);
    expect((inUrl as RemoteError).code).toBe('E_REMOTE_INVALID');
    expect(`${(inUrl as Error).message}${JSON.stringify((inUrl as RemoteError).data)}${String((inUrl as Error).stack)}`).not.toContain(password);

    const onAuth = (): { username: string; password: string } => ({ username: 'bot', password });
    await repo.push(remote, { onAuth });
    // a refused update names the ref, never the password that was sent with it
    const { repo: other } = await newRepo();
    await other.createSession('auth', { model: 'openai:gpt-4o' });
    await turn(other, 'auth', '2');
    const refused = await other.push(remote, { onAuth }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RemoteConflictError);
    expect(`${(refused as Error).message}${JSON.stringify((refused as RemoteError).data)}`).not.toContain(password);

    const c = await cloneRepo({ dir: join(tempDir(), 'c.git'), fsync: false, remote, onAuth });
    expect(await c.listSessions()).toEqual(['auth']);
    for (const file of [...filesUnder(dir), ...filesUnder(c.git.gitdir)]) expect(readFileSync(file).includes(password), file).toBe(false);
  });
});
