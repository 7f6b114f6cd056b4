// The cause of a flake of concurrency.test.ts ("3 processes on one session and 2 on their own", once under very heavy
// load): a reader found a pack gone, rolled up by another process's maintenance, and after one refresh of the pack
// list found the next pack gone as well (a second roll-up while it was descheduled), so an object that was always in
// the repository read as missing (ObjectNotFoundError, which a writer does not retry). Readers now read the pack list
// again for as long as packs vanish under them (each vanished pack proves that a newer one holds its objects); an
// index a crash left without its pack is skipped once it is known. The interleaving is forced here, deterministically.
import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openGit, readBlob, writeBlob } from '../../src/git/index.js';
import type { FsLike } from '../../src/index.js';
import type { GitContext } from '../../src/git/index.js';
import { inBatch, maintain } from '../../src/git/internal/pack-store.js';
import { cleanTemps, tempDir } from './support.js';

afterAll(cleanTemps);

/** node's fs, with `beforePackRead` run before each read of a `.pack` file (whole, or its opening for reads at a position). */
function hookedFs(beforePackRead: () => Promise<void>): FsLike {
  const p = nodeFs.promises;
  const promises = new Proxy(p, {
    get(target, key, receiver) {
      if (key !== 'readFile' && key !== 'open') return Reflect.get(target, key, receiver) as unknown;
      return async (path: nodeFs.PathLike, ...rest: unknown[]) => {
        if (String(path).endsWith('.pack') && (key === 'readFile' || rest[0] === 'r')) await beforePackRead();
        return (p[key] as (...a: unknown[]) => Promise<unknown>)(path, ...rest);
      };
    },
  });
  // without readSync, a pack is opened through promises (hooked here) whether it is read whole or at a position
  return { ...nodeFs, readSync: undefined, promises } as unknown as FsLike;
}

describe('a reader racing pack roll-ups of another process', () => {
  it('two roll-ups while one object is read: the object is found (it never left the repository)', async () => {
    const dir = join(tempDir(), 'r.git');
    const writer: GitContext = await openGit({ dir, fsync: false, maintenance: false });
    const wanted = await inBatch(writer, () => writeBlob(writer, 'the object the reader wants'));
    await inBatch(writer, () => writeBlob(writer, 'a second pack'));
    let rollUps = 0;
    // the other process writes a pack and rolls every pack into one before each of the reader's first two pack reads
    const reader = await openGit({
      dir,
      fsync: false,
      maintenance: false,
      fs: hookedFs(async () => {
        if (rollUps >= 2) return;
        rollUps++;
        await inBatch(writer, () => writeBlob(writer, `written during the read ${rollUps}`));
        await maintain(writer, true);
      }),
    });
    expect(Buffer.from(await readBlob(reader, wanted)).toString()).toBe('the object the reader wants');
    expect(rollUps).toBe(2);
  });

  it('an index left without its pack by a crash: the read ends (the object is found elsewhere, or missing)', async () => {
    const dir = join(tempDir(), 'r.git');
    const writer = await openGit({ dir, fsync: false, maintenance: false });
    const kept = await inBatch(writer, () => writeBlob(writer, 'kept'));
    const lost = await inBatch(writer, () => writeBlob(writer, 'lost with its pack'));
    const packs = nodeFs.readdirSync(`${dir}/objects/pack`).filter((f) => f.endsWith('.pack'));
    expect(packs).toHaveLength(2);
    const reader = await openGit({ dir, fsync: false, maintenance: false });
    for (const f of packs) {
      const idx = nodeFs.readFileSync(`${dir}/objects/pack/${f.replace(/\.pack$/u, '.idx')}`);
      if (idx.includes(Buffer.from(lost, 'hex'))) nodeFs.unlinkSync(`${dir}/objects/pack/${f}`);
    }
    await expect(readBlob(reader, lost)).rejects.toMatchObject({ code: 'E_GIT_OBJECT_NOT_FOUND' });
    expect(Buffer.from(await readBlob(reader, kept)).toString()).toBe('kept');
  });
});
