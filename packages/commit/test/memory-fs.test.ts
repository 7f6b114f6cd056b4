// The in-memory file system of a repository in memory: rename keeps POSIX's meaning while freeing the file it replaces.
import { describe, expect, it } from 'vitest';
import { memoryFs, openGit, readRef, compareAndSwapRef, writeBlob } from '../src/git/index.js';

const text = async (fs: Awaited<ReturnType<typeof memoryFs>>, path: string): Promise<string> => String(await fs.promises.readFile(path));
const code = async (p: Promise<unknown>): Promise<unknown> => p.then(() => 'ok', (err: unknown) => (err as { code?: unknown }).code);

describe('memoryFs', () => {
  it('renames onto an existing file: the target holds the source, the source name is gone', async () => {
    const fs = await memoryFs();
    await fs.promises.mkdir('/d', { recursive: true });
    await fs.promises.writeFile('/d/ref', 'old');
    await fs.promises.writeFile('/d/new', 'new');
    await fs.promises.rename('/d/new', '/d/ref');
    expect(await text(fs, '/d/ref')).toBe('new');
    expect((await fs.promises.readdir('/d')).map(String)).toEqual(['ref']);
    expect(String(fs.readFileSync?.('/d/ref'))).toBe('new');
    // the synchronous form (what the git layer calls) is the same rename
    await fs.promises.writeFile('/d/next', 'next');
    fs.renameSync?.('/d/next', '/d/ref');
    expect((await fs.promises.readdir('/d')).map(String)).toEqual(['ref']);
    expect(await text(fs, '/d/ref')).toBe('next');
  });

  it('renames onto a missing name, and leaves both names of one file as they are (POSIX)', async () => {
    const fs = await memoryFs();
    await fs.promises.mkdir('/d', { recursive: true });
    await fs.promises.writeFile('/d/a', 'a');
    await fs.promises.rename('/d/a', '/d/b');
    expect((await fs.promises.readdir('/d')).map(String)).toEqual(['b']);
    await fs.promises.link?.('/d/b', '/d/c');
    await fs.promises.rename('/d/b', '/d/c');
    expect((await fs.promises.readdir('/d')).map(String).sort()).toEqual(['b', 'c']);
  });

  it('fails a rename from a missing file with ENOENT and leaves the target', async () => {
    const fs = await memoryFs();
    await fs.promises.mkdir('/d', { recursive: true });
    await fs.promises.writeFile('/d/ref', 'old');
    expect(await code(fs.promises.rename('/d/missing', '/d/ref'))).toBe('ENOENT');
    expect(await text(fs, '/d/ref')).toBe('old');
  });

  it('moves refs of a repository in memory as before', async () => {
    const ctx = await openGit({ memory: true });
    const a = await writeBlob(ctx, 'a');
    const b = await writeBlob(ctx, 'b');
    await compareAndSwapRef(ctx, 'refs/heads/x', null, a);
    for (let i = 0; i < 20; i++) await compareAndSwapRef(ctx, 'refs/heads/x', i % 2 === 0 ? a : b, i % 2 === 0 ? b : a);
    expect(await readRef(ctx, 'refs/heads/x')).toBe(a);
  });
});
