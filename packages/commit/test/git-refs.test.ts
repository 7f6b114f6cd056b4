import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { compareAndSwapRef } from '../src/git/compare-and-swap-ref.js';
import { GitIoError, InvalidNameError, ObjectNotFoundError, RefConflictError } from '../src/git/errors.js';
import type { FsLike, FsPromisesLike } from '../src/git/fs-like.js';
import type { GitContext } from '../src/git/git-context.js';
import { listRefs } from '../src/git/list-refs.js';
import { openGit } from '../src/git/open-git.js';
import { readRef } from '../src/git/read-ref.js';
import { recoverStaleLocks } from '../src/git/recover-stale-locks.js';
import { writeBlob } from '../src/git/write-blob.js';
import { writeCommit } from '../src/git/write-commit.js';
import { writeTree } from '../src/git/write-tree.js';
import { AUTHOR, FS_KINDS, fsckStrict, git, tempRepoDir } from './git-fixtures.js';

async function commits(ctx: GitContext, n: number): Promise<string[]> {
  const tree = await writeTree(ctx, [{ mode: '100644', path: 'f', oid: await writeBlob(ctx, 'f'), type: 'blob' }]);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(await writeCommit(ctx, { tree, parents: out.slice(-1), message: `c${i}\n`, author: AUTHOR }));
  return out;
}

/** The same repository seen through an fs whose `rename` fails once for paths ending in `suffix`. */
function failingRename(ctx: GitContext, suffix: string): GitContext {
  let armed = true;
  const inner = ctx.fs.promises;
  const promises: FsPromisesLike = {
    readFile: (p) => inner.readFile(p),
    writeFile: (p, d, o) => inner.writeFile(p, d, o),
    open: (p, f) => inner.open(p, f),
    rename: (from, to) => {
      if (armed && from.endsWith(suffix)) {
        armed = false;
        return Promise.reject(Object.assign(new Error('injected EIO'), { code: 'EIO' }));
      }
      return inner.rename(from, to);
    },
    unlink: (p) => inner.unlink(p),
    mkdir: (p, o) => inner.mkdir(p, o),
    readdir: (p) => inner.readdir(p),
    stat: (p) => inner.stat(p),
    lstat: (p) => inner.lstat(p),
    rmdir: (p) => inner.rmdir(p),
  };
  const fs: FsLike = { promises };
  return { fs, gitdir: ctx.gitdir, cache: {} };
}

async function exists(ctx: GitContext, path: string): Promise<boolean> {
  try {
    await ctx.fs.promises.stat(path);
    return true;
  } catch {
    return false;
  }
}

describe.each(FS_KINDS)('refs on $name', (kind) => {
  test('create, advance, refuse a stale expectation', async () => {
    const ctx = await kind.open();
    const [c0, c1, c2] = await commits(ctx, 3);
    if (c0 === undefined || c1 === undefined || c2 === undefined) throw new Error('commits');
    const ref = 'refs/ctxgit/sessions/chat-42';
    expect(await readRef(ctx, ref)).toBeNull();
    await compareAndSwapRef(ctx, ref, null, c0);
    expect(await readRef(ctx, ref)).toBe(c0);
    await expect(compareAndSwapRef(ctx, ref, null, c1)).rejects.toMatchObject({ code: 'E_GIT_REF_CONFLICT', data: { reason: 'moved', expected: null, actual: c0 } });
    await compareAndSwapRef(ctx, ref, c0, c1);
    await expect(compareAndSwapRef(ctx, ref, c0, c2)).rejects.toBeInstanceOf(RefConflictError);
    expect(await readRef(ctx, ref)).toBe(c1);
    expect(new TextDecoder().decode((await ctx.fs.promises.readFile(`${ctx.gitdir}/${ref}`)) as Uint8Array)).toBe(`${c1}\n`);
    expect(await exists(ctx, `${ctx.gitdir}/${ref}.lock`)).toBe(false);
  });

  test('a held lock is a conflict with reason "locked"; the holder is not disturbed', async () => {
    const ctx = await kind.open();
    const [c0, c1] = await commits(ctx, 2);
    if (c0 === undefined || c1 === undefined) throw new Error('commits');
    const ref = 'refs/ctxgit/dag';
    await compareAndSwapRef(ctx, ref, null, c0);
    await ctx.fs.promises.writeFile(`${ctx.gitdir}/${ref}.lock`, 'held');
    await expect(compareAndSwapRef(ctx, ref, c0, c1)).rejects.toMatchObject({ code: 'E_GIT_REF_CONFLICT', data: { reason: 'locked' } });
    expect(await exists(ctx, `${ctx.gitdir}/${ref}.lock`)).toBe(true);
    expect(await readRef(ctx, ref)).toBe(c0);
  });

  test('a ref is never pointed at a missing object', async () => {
    const ctx = await kind.open();
    await expect(compareAndSwapRef(ctx, 'refs/ctxgit/x', null, '5'.repeat(40))).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await readRef(ctx, 'refs/ctxgit/x')).toBeNull();
  });

  test('a failing rename removes the lock and leaves the ref unchanged', async () => {
    const ctx = await kind.open();
    const [c0, c1] = await commits(ctx, 2);
    if (c0 === undefined || c1 === undefined) throw new Error('commits');
    await compareAndSwapRef(ctx, 'refs/ctxgit/r', null, c0);
    const faulty = failingRename(ctx, '.lock');
    await expect(compareAndSwapRef(faulty, 'refs/ctxgit/r', c0, c1)).rejects.toMatchObject({ code: 'E_GIT_IO', data: { errno: 'EIO' }, retryable: false });
    expect(await exists(ctx, `${ctx.gitdir}/refs/ctxgit/r.lock`)).toBe(false);
    expect(await readRef(ctx, 'refs/ctxgit/r')).toBe(c0);
    await compareAndSwapRef(faulty, 'refs/ctxgit/r', c0, c1);
    expect(await readRef(ctx, 'refs/ctxgit/r')).toBe(c1);
  });

  test('a failing object rename leaves no object and no temp file behind', async () => {
    const ctx = await kind.open();
    const faulty = failingRename(ctx, '');
    await expect(writeBlob(faulty, 'never stored')).rejects.toBeInstanceOf(GitIoError);
    const dirs = (await ctx.fs.promises.readdir(`${ctx.gitdir}/objects`)).map(String).filter((d) => /^[0-9a-f]{2}$/u.test(d));
    for (const d of dirs) expect(await ctx.fs.promises.readdir(`${ctx.gitdir}/objects/${d}`)).toEqual([]);
    const oid = await writeBlob(faulty, 'never stored');
    expect(await exists(ctx, `${ctx.gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`)).toBe(true);
  });

  test('of many concurrent swaps from the same value exactly one wins', async () => {
    const ctx = await kind.open();
    const cs = await commits(ctx, 11);
    const [base, ...rest] = cs;
    if (base === undefined) throw new Error('commits');
    await compareAndSwapRef(ctx, 'refs/ctxgit/race', null, base);
    const results = await Promise.allSettled(rest.map((c) => compareAndSwapRef(ctx, 'refs/ctxgit/race', base, c)));
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [rest[i]] : []));
    expect(won).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(RefConflictError);
    expect(await readRef(ctx, 'refs/ctxgit/race')).toBe(won[0]);
  });

  test('listRefs lists loose refs under a prefix, sorted, without locks', async () => {
    const ctx = await kind.open();
    const [c0] = await commits(ctx, 1);
    if (c0 === undefined) throw new Error('commits');
    for (const name of ['b', 'a', 'a-2']) await compareAndSwapRef(ctx, `refs/ctxgit/sessions/${name}`, null, c0);
    await compareAndSwapRef(ctx, 'refs/ctxgit/dag', null, c0);
    await ctx.fs.promises.writeFile(`${ctx.gitdir}/refs/ctxgit/sessions/c.lock`, 'x');
    expect(await listRefs(ctx, 'refs/ctxgit/sessions/')).toEqual(['refs/ctxgit/sessions/a', 'refs/ctxgit/sessions/a-2', 'refs/ctxgit/sessions/b']);
    expect(await listRefs(ctx, 'refs/ctxgit/sessions/a')).toEqual(['refs/ctxgit/sessions/a', 'refs/ctxgit/sessions/a-2']);
    expect(await listRefs(ctx, 'refs/ctxgit/')).toHaveLength(4);
    expect(await listRefs(ctx, 'refs/nothing/')).toEqual([]);
    await expect(listRefs(ctx, 'refs/../x')).rejects.toBeInstanceOf(InvalidNameError);
  });

  test('recoverStaleLocks removes only locks older than the threshold', async () => {
    const ctx = await kind.open();
    await ctx.fs.promises.mkdir(`${ctx.gitdir}/refs/ctxgit/sessions`, { recursive: true });
    await ctx.fs.promises.writeFile(`${ctx.gitdir}/refs/ctxgit/dag.lock`, 'x');
    await ctx.fs.promises.writeFile(`${ctx.gitdir}/refs/ctxgit/sessions/s.lock`, 'x');
    const mtime = Number((await ctx.fs.promises.stat(`${ctx.gitdir}/refs/ctxgit/dag.lock`)).mtimeMs);
    expect(await recoverStaleLocks(ctx, { olderThanMs: 60_000, now: mtime + 1_000 })).toEqual([]);
    expect(await recoverStaleLocks(ctx, { olderThanMs: 60_000, now: mtime + 120_000 })).toEqual(['refs/ctxgit/dag', 'refs/ctxgit/sessions/s']);
    expect(await exists(ctx, `${ctx.gitdir}/refs/ctxgit/dag.lock`)).toBe(false);
    await expect(recoverStaleLocks(ctx, { olderThanMs: -1 })).rejects.toMatchObject({ code: 'E_GIT_INVALID_ARGUMENT' });
  });

  test('ref names git refuses are refused', async () => {
    const ctx = await kind.open();
    const [c0] = await commits(ctx, 1);
    if (c0 === undefined) throw new Error('commits');
    for (const ref of ['HEAD', 'refs/a/../b', 'refs/a/.b', 'refs/a.lock', 'refs/a b', 'refs/a\u0001', 'refs/a@{1}', 'refs//a', 'refs/a/', 'refs/a.', 'refs/x~1', 'refs/x:y']) {
      await expect(readRef(ctx, ref)).rejects.toBeInstanceOf(InvalidNameError);
      await expect(compareAndSwapRef(ctx, ref, null, c0)).rejects.toBeInstanceOf(InvalidNameError);
    }
    await expect(compareAndSwapRef(ctx, 'refs/ok', 'zz', c0)).rejects.toMatchObject({ code: 'E_GIT_INVALID_ARGUMENT' });
  });
});

describe('refs interoperate with the git binary', () => {
  const kind = FS_KINDS.find((k) => k.name === 'disk');
  if (kind === undefined) throw new Error('no disk kind');

  test('git sees our refs, we see git refs, packed refs are read, git respects our lock', async () => {
    const ctx = await kind.open();
    const [c0, c1, c2] = await commits(ctx, 3);
    if (c0 === undefined || c1 === undefined || c2 === undefined) throw new Error('commits');
    await compareAndSwapRef(ctx, 'refs/ctxgit/dag', null, c1);
    expect(git(ctx, ['rev-parse', 'refs/ctxgit/dag']).trim()).toBe(c1);
    expect(git(ctx, ['log', '--format=%s', 'refs/ctxgit/dag'])).toBe('c1\nc0\n');
    git(ctx, ['update-ref', 'refs/ctxgit/by-git', c0]);
    expect(await readRef(ctx, 'refs/ctxgit/by-git')).toBe(c0);
    git(ctx, ['pack-refs', '--all', '--prune']);
    expect(await exists(ctx, `${ctx.gitdir}/refs/ctxgit/dag`)).toBe(false);
    expect(await readRef(ctx, 'refs/ctxgit/dag')).toBe(c1);
    expect(await listRefs(ctx, 'refs/ctxgit/')).toEqual(['refs/ctxgit/by-git', 'refs/ctxgit/dag']);
    await expect(compareAndSwapRef(ctx, 'refs/ctxgit/dag', c0, c2)).rejects.toMatchObject({ data: { reason: 'moved', actual: c1 } });
    await compareAndSwapRef(ctx, 'refs/ctxgit/dag', c1, c2);
    expect(git(ctx, ['rev-parse', 'refs/ctxgit/dag']).trim()).toBe(c2);
    await ctx.fs.promises.writeFile(`${ctx.gitdir}/refs/ctxgit/dag.lock`, 'held by us');
    const run = spawnSync('git', ['--git-dir', ctx.gitdir, 'update-ref', 'refs/ctxgit/dag', c0], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/File exists|Unable to create/u);
    await ctx.fs.promises.unlink(`${ctx.gitdir}/refs/ctxgit/dag.lock`);
    expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
  });
});

describe('ref-sized files', () => {
  test('go through the synchronous calls the fs has and through promises otherwise, with the same results', async () => {
    const dir = await tempRepoDir();
    const seen = { sync: [] as string[], promises: [] as string[] };
    const track = <A extends unknown[], R>(into: string[], name: string, f: (...a: A) => R) => (...args: A): R => {
      if (typeof args[0] === 'string') into.push(`${name} ${args[0]}`);
      return f(...args);
    };
    const promises = nodeFs.promises;
    const withSync: FsLike = {
      promises: {
        ...promises,
        readFile: track(seen.promises, 'readFile', promises.readFile),
        open: track(seen.promises, 'open', promises.open),
        link: track(seen.promises, 'link', promises.link),
        rename: track(seen.promises, 'rename', promises.rename),
        unlink: track(seen.promises, 'unlink', promises.unlink),
      } as unknown as FsPromisesLike,
      readFileSync: track(seen.sync, 'readFileSync', (p: string) => nodeFs.readFileSync(p)),
      openSync: track(seen.sync, 'openSync', (p: string, flags: string) => nodeFs.openSync(p, flags)),
      writeSync: (fd, data) => nodeFs.writeSync(fd, data),
      closeSync: (fd) => nodeFs.closeSync(fd),
      fdatasync: (fd, callback) => nodeFs.fdatasync(fd, callback),
      linkSync: track(seen.sync, 'linkSync', (a: string, b: string) => nodeFs.linkSync(a, b)),
      renameSync: track(seen.sync, 'renameSync', (a: string, b: string) => nodeFs.renameSync(a, b)),
      unlinkSync: track(seen.sync, 'unlinkSync', (p: string) => nodeFs.unlinkSync(p)),
    };
    const refFiles = (calls: readonly string[]): string[] => calls.filter((c) => c.includes('/refs/') || c.endsWith('packed-refs'));
    for (const fsync of [false, true]) {
      seen.sync.length = 0;
      seen.promises.length = 0;
      const ref = `refs/ctxgit/s${String(fsync)}`;
      const a = await openGit({ dir, fsync, fs: withSync });
      const [c0, c1] = await commits(a, 2);
      if (c0 === undefined || c1 === undefined) throw new Error('commits');
      await compareAndSwapRef(a, ref, null, c0);
      await compareAndSwapRef(a, ref, c0, c1);
      expect(await readRef(a, ref)).toBe(c1);
      expect(await readRef(a, 'refs/ctxgit/none')).toBeNull();
      // a ref move's lock, value, rename and unlinks: each call in its synchronous form
      expect(new Set(refFiles(seen.sync).map((c) => c.split(' ')[0]))).toEqual(new Set(['readFileSync', 'openSync', 'linkSync', 'renameSync', 'unlinkSync']));
      expect(refFiles(seen.promises)).toEqual([]);
      // the same repository through promises alone
      const b = await openGit({ dir, fsync, fs: { promises: withSync.promises } });
      seen.sync.length = 0;
      expect(await readRef(b, ref)).toBe(c1);
      expect(await readRef(b, 'refs/ctxgit/none')).toBeNull();
      await compareAndSwapRef(b, ref, c1, c0);
      expect(seen.sync).toEqual([]);
      expect(new Set(refFiles(seen.promises).map((c) => c.split(' ')[0]))).toEqual(new Set(['readFile', 'open', 'link', 'rename', 'unlink']));
      expect(await readRef(a, ref)).toBe(c0);
      expect(fsckStrict(a)).toEqual({ status: 0, problems: [] });
    }
  });
});
