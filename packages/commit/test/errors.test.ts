import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EmptySessionError,
  InvalidMergeError,
  InvalidNameError,
  InvalidOptionError,
  NotCtxgitRepoError,
  openRepo,
  SelfMergeError,
  SessionNameTakenError,
  UnknownCommitError,
  UnknownModelError,
  UnknownSessionError,
} from '../src/index.js';
import type { Repo } from '../src/index.js';
import { GitIoError } from '../src/git/errors.js';
import { FS_KINDS, snapshot, stepClock, tempDir } from './helpers.js';

async function seeded(repo: Repo): Promise<{ tool: string }> {
  const clock = stepClock();
  const s = await repo.createSession('s', { model: 'openai:gpt-4o', clock });
  await s.append({ role: 'user', output: 'hi' });
  const a = await s.append({ role: 'assistant', output: 'calling' });
  const t = await s.append({ role: 'tool', name: 'ls', output: '.', caller: a.id });
  await s.commit();
  await repo.createSession('empty', { model: 'openai:gpt-4o', clock });
  return { tool: t.id };
}

describe.each(FS_KINDS)('bad input on $name is refused before anything is written', (kind) => {
  it('every error path leaves the repository byte for byte unchanged', async () => {
    const { repo, fs, gitdir } = await kind.open();
    const { tool } = await seeded(repo);
    const s = await repo.openSession('s');
    await repo.settled();
    const before = await snapshot(fs, gitdir);
    const dagCommit = (await repo.store.head('s')) as string;
    const cases: [string, () => Promise<unknown>, new (...args: never[]) => Error][] = [
      ['slash', () => repo.createSession('a/b', { model: 'openai:gpt-4o' }), InvalidNameError],
      ['dotdot', () => repo.createSession('a..b', { model: 'openai:gpt-4o' }), InvalidNameError],
      ['escape', () => repo.createSession('../x', { model: 'openai:gpt-4o' }), InvalidNameError],
      ['control', () => repo.createSession('a\u0001b', { model: 'openai:gpt-4o' }), InvalidNameError],
      ['lock', () => repo.createSession('x.lock', { model: 'openai:gpt-4o' }), InvalidNameError],
      ['empty name', () => repo.createSession('', { model: 'openai:gpt-4o' }), InvalidNameError],
      ['unknown model', () => repo.createSession('new', { model: 'openai:nope-9' }), UnknownModelError],
      ['bad window', () => repo.createSession('new', { model: 'openai:gpt-4o', window: -5 }), InvalidOptionError],
      ['budget over window', () => repo.createSession('new', { model: 'openai:gpt-4o', budget: 10_000_000 }), InvalidOptionError],
      ['taken', () => repo.createSession('s', { model: 'openai:gpt-4o' }), SessionNameTakenError],
      ['open missing', () => repo.openSession('missing'), UnknownSessionError],
      ['open invalid', () => repo.openSession('a/b'), InvalidNameError],
      ['unknown commit', () => repo.readCommit('1'.repeat(40)), UnknownCommitError],
      ['not an oid', () => repo.readCommit('HEAD'), UnknownCommitError],
      ['not a ContextCommit', () => repo.readCommit(dagCommit), UnknownCommitError],
      ['empty commit', async () => (await repo.openSession('empty')).commit(), EmptySessionError],
      ['attach missing session', () => s.attach({ session: 'ghost' }), UnknownSessionError],
      ['attach unknown commit', () => s.attach({ session: 'empty', commit: '2'.repeat(40) }), UnknownCommitError],
      ['fork taken', () => s.fork('empty'), SessionNameTakenError],
      ['fork invalid', () => s.fork('a b/c'), InvalidNameError],
      ['fork at tool', () => s.fork('f', { at: tool }), InvalidOptionError],
      ['fork at missing node', () => s.fork('f', { at: 'ffffffffffffffff' }), InvalidOptionError],
      ['merge self', () => repo.merge({ target: 's', peers: ['s'] }), SelfMergeError],
      ['merge no peers', () => repo.merge({ target: 's', peers: [] }), InvalidMergeError],
      ['merge twice', () => repo.merge({ target: 'empty', peers: ['s', 's'] }), InvalidMergeError],
      ['merge bad base', () => repo.merge({ target: 'empty', peers: ['s'], base: 'other' }), InvalidMergeError],
      ['merge unknown peer', () => repo.merge({ target: 's', peers: ['ghost'] }), UnknownSessionError],
      ['merge unknown target', () => repo.merge({ target: 'ghost', peers: ['s'] }), UnknownSessionError],
      ['merge empty peer', () => repo.merge({ target: 's', peers: ['empty'] }), EmptySessionError],
      ['merge invalid peer', () => repo.merge({ target: 's', peers: ['../etc'] }), InvalidNameError],
      ['forged attach pointer', () => s.append({ role: 'user', output: 'x', metadata: { attach: { session: 'empty', head: tool, commit: '4'.repeat(40) } } }), InvalidOptionError],
      ['forged merge flag', () => s.append({ role: 'user', output: 'x', metadata: { merge: { base: true } } }), InvalidOptionError],
      ['expand without summary', () => s.expand('zzz', { commit: '3'.repeat(40) }), UnknownCommitError],
    ];
    for (const [name, call, type] of cases) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(type);
      expect(typeof (err as { code?: unknown }).code, name).toBe('string');
      expect(await snapshot(fs, gitdir), name).toEqual(before);
    }
  });
});

describe('repositories that are not ctxgit repositories', () => {
  it('refuses a git repository with refs but no ctxgit marker, and a directory of other files', async () => {
    const plain = join(tempDir(), 'plain.git');
    execFileSync('git', ['init', '--bare', '-q', plain]);
    const blob = execFileSync('git', ['--git-dir', plain, 'hash-object', '-w', '--stdin'], { input: 'x' }).toString().trim();
    execFileSync('git', ['--git-dir', plain, 'update-ref', 'refs/tags/x', blob]);
    await expect(openRepo({ dir: plain })).rejects.toBeInstanceOf(NotCtxgitRepoError);
    const other = join(tempDir(), 'stuff');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'hello');
    await expect(openRepo({ dir: other })).rejects.toMatchObject({ code: 'E_COMMIT_NOT_CTXGIT_REPO' });
  });

  it('adopts an empty bare repository and reopens its own', async () => {
    const empty = join(tempDir(), 'empty.git');
    execFileSync('git', ['init', '--bare', '-q', empty]);
    const repo = await openRepo({ dir: empty, clock: stepClock(), fsync: false });
    await repo.createSession('a', { model: 'openai:gpt-4o' });
    const again = await openRepo({ dir: empty, fsync: false });
    expect(await again.listSessions()).toEqual(['a']);
  });
});

describe('GitIoError', () => {
  it('is retryable for a passing condition (busy, interrupted, out of handles), not for a full disk or a denied write', () => {
    const io = (code: string): GitIoError => new GitIoError('write', '/x', Object.assign(new Error(code), { code }));
    for (const code of ['EAGAIN', 'EBUSY', 'EINTR', 'EMFILE', 'ENFILE', 'ETIMEDOUT']) expect(io(code)).toMatchObject({ code: 'E_GIT_IO', retryable: true, data: { errno: code } });
    for (const code of ['ENOSPC', 'EACCES', 'EIO', 'EROFS']) expect(io(code).retryable).toBe(false);
    expect(new GitIoError('read', '/x', 'not an errno').data).toMatchObject({ errno: 'unknown' });
    expect(io('EMFILE').message).toContain('retry in a moment');
  });
});
