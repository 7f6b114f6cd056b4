// The import's scratch repository: packs on disk, refs in memory, and a replay through it gives what a replay on
// disk gives.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importOpenAIChat } from '@ctxgit/dag';
import { openRepo, packSessions } from '@ctxgit/commit';
import { inBatch } from '@ctxgit/commit/git';
import { afterEach, describe, expect, it } from 'vitest';
import { replayAll } from '../src/commands/import.js';
import { scratchFs } from '../src/scratch-fs.js';
import { firstLines, TAU } from './helpers.js';

const quiet = { tick: () => undefined, done: () => undefined };
const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'ctxgit-scratch-fs-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('scratchFs', () => {
  it('keeps the packs on disk and the refs in memory, and the replay gives the same sessions as one on disk', async () => {
    const named = importOpenAIChat(firstLines(TAU, 2)).map((transcript, i) => ({ session: `tau-${i}`, transcript }));
    const opts = { model: 'openai:gpt-4o', clockStep: 60 };
    const packed = async (dir: string, fs?: Awaited<ReturnType<typeof scratchFs>>) => {
      const repo = await openRepo({ dir, ...(fs === undefined ? {} : { fs }), fsync: false, maintenance: false });
      await inBatch(repo.git, () => replayAll(repo, named, opts, quiet, ''), { holdBytes: 1 << 20 });
      return { repo, pack: await packSessions(repo, { compact: false }) };
    };
    const scratch = join(tempDir(), 'scratch.git');
    const routed = await packed(scratch, await scratchFs(scratch));
    const plain = await packed(join(tempDir(), 'plain.git'));

    expect(readdirSync(scratch)).toEqual(['objects']);
    expect(readdirSync(join(scratch, 'objects', 'pack')).some((f) => f.endsWith('.pack'))).toBe(true);
    expect(existsSync(join(scratch, 'refs'))).toBe(false);
    expect(await routed.repo.listSessions()).toEqual(['tau-0', 'tau-1']);
    const heads = async (r: typeof routed) => Promise.all(named.map(async ({ session }) => (await r.repo.openSession(session)).head()));
    expect(await heads(routed)).toEqual(await heads(plain));
    expect(routed.pack.objects).toBe(plain.pack.objects);
  });

  it('routes a path by where it resolves: objects/ and below to disk, the rest (a name that only begins alike) to memory', async () => {
    const dir = join(tempDir(), 'r.git');
    const fs = await scratchFs(dir);
    await fs.promises.mkdir(join(dir, 'objects', 'pack'), { recursive: true });
    await fs.promises.writeFile(join(dir, 'objects', 'pack', '..', 'x'), 'disk');
    await fs.promises.mkdir(join(dir, 'objects-not'), { recursive: true });
    await fs.promises.writeFile(join(dir, 'objects-not', 'y'), 'memory');
    await fs.promises.writeFile(join(dir, 'HEAD'), 'memory');
    expect(readdirSync(dir)).toEqual(['objects']);
    expect(readdirSync(join(dir, 'objects')).sort()).toEqual(['pack', 'x']);
    expect(String(await fs.promises.readFile(join(dir, 'objects-not', 'y')))).toBe('memory');
    expect(String(fs.readFileSync?.(join(dir, 'HEAD')))).toBe('memory');
    // the synchronous calls of small files too, a descriptor written and flushed where it was opened
    const write = async (path: string, text: string): Promise<void> => {
      const fd = (fs.openSync as NonNullable<typeof fs.openSync>)(path, 'wx');
      (fs.writeSync as NonNullable<typeof fs.writeSync>)(fd, Buffer.from(text));
      await new Promise<void>((done, fail) => (fs.fdatasync as NonNullable<typeof fs.fdatasync>)(fd, (err) => (err ? fail(err) : done())));
      (fs.closeSync as NonNullable<typeof fs.closeSync>)(fd);
    };
    await write(join(dir, 'objects', 'z'), 'disk');
    await write(join(dir, 'refs-z'), 'memory');
    fs.renameSync?.(join(dir, 'refs-z'), join(dir, 'refs-y'));
    fs.linkSync?.(join(dir, 'objects', 'z'), join(dir, 'objects', 'w'));
    fs.unlinkSync?.(join(dir, 'objects', 'z'));
    expect(readdirSync(dir)).toEqual(['objects']);
    expect(readdirSync(join(dir, 'objects')).sort()).toEqual(['pack', 'w', 'x']);
    expect(String(fs.readFileSync?.(join(dir, 'refs-y')))).toBe('memory');
  });
});
