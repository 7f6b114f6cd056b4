import { Volume, createFsFromVolume } from 'memfs';
import { describe, expect, test } from 'vitest';
import { NotARepositoryError } from '../src/git/errors.js';
import { openGit } from '../src/git/open-git.js';
import { readBlob } from '../src/git/read-blob.js';
import { writeBlob } from '../src/git/write-blob.js';
import { fsckStrict, git, tempRepoDir } from './git-fixtures.js';

describe('openGit', () => {
  test('creates a bare repository git accepts, and reopens it', async () => {
    const dir = await tempRepoDir();
    const ctx = await openGit({ dir, fsync: true });
    expect(git(ctx, ['rev-parse', '--is-bare-repository']).trim()).toBe('true');
    const oid = await writeBlob(ctx, 'kept\n');
    const again = await openGit({ dir });
    expect(again.gitdir).toBe(ctx.gitdir);
    expect(new TextDecoder().decode(await readBlob(again, oid))).toBe('kept\n');
    expect(fsckStrict(ctx).status).toBe(0);
  });

  test('opens a repository made by git init --bare', async () => {
    const dir = await tempRepoDir();
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['init', '--bare', '--quiet', dir]);
    const ctx = await openGit({ dir });
    expect(git(ctx, ['cat-file', '-p', await writeBlob(ctx, 'x')])).toBe('x');
  });

  test('in memory: a fresh volume per call, or the given one', async () => {
    const a = await openGit({ memory: true });
    const b = await openGit({ memory: true });
    const oid = await writeBlob(a, 'only in a');
    await expect(readBlob(b, oid)).rejects.toMatchObject({ code: 'E_GIT_OBJECT_NOT_FOUND' });
    const fs = createFsFromVolume(new Volume());
    const c = await openGit({ memory: true, fs });
    await writeBlob(c, 'in c');
    const d = await openGit({ memory: true, fs });
    expect(new TextDecoder().decode(await readBlob(d, await writeBlob(c, 'in c')))).toBe('in c');
    expect(d.gitdir).toBe('/ctxgit.git');
  });

  test('refuses a directory holding something else, or a file', async () => {
    const fs = createFsFromVolume(new Volume());
    await fs.promises.mkdir('/proj', { recursive: true });
    await fs.promises.writeFile('/proj/README.md', 'hi');
    await expect(openGit({ dir: '/proj', fs })).rejects.toBeInstanceOf(NotARepositoryError);
    await expect(openGit({ dir: '/proj/README.md', fs })).rejects.toMatchObject({ code: 'E_GIT_NOT_A_REPOSITORY' });
    await expect(openGit({ dir: '', fs })).rejects.toMatchObject({ code: 'E_GIT_INVALID_ARGUMENT' });
  });

  test('finishes a creation that a crash interrupted', async () => {
    const fs = createFsFromVolume(new Volume());
    await fs.promises.mkdir('/r.git/objects', { recursive: true });
    await fs.promises.writeFile('/r.git/HEAD.tmp_init', 'ref: refs/heads/ma');
    const ctx = await openGit({ dir: '/r.git', fs });
    expect(String(await fs.promises.readFile('/r.git/HEAD'))).toBe('ref: refs/heads/main\n');
    expect(String(await fs.promises.readFile('/r.git/config'))).toContain('bare = true');
    expect(ctx.gitdir).toBe('/r.git');
  });
});
