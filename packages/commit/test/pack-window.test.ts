// Issue 17, item 5: an object of a large pack is read at its position (its entry, delta bases included), not by
// reading the whole pack — and reads back byte for byte, from a fresh context, on disk and on memfs.
import { describe, expect, test } from 'vitest';
import { inBatch, listPacks } from '../src/git/internal/pack-store.js';
import { stateOf } from '../src/git/internal/state.js';
import { openGit } from '../src/git/open-git.js';
import { readBlob } from '../src/git/read-blob.js';
import { writeBlob } from '../src/git/write-blob.js';
import { tempRepoDir } from './git-fixtures.js';

/** Blobs that delta against each other: a shared body with a varying line. */
const blobs = Array.from({ length: 5000 }, (_, i) => Buffer.from(`${'a shared body line of a tool result\n'.repeat(40 + (i % 7))}item ${i}\n${'x'.repeat(i % 300)}`));

describe('a pack of more than 4,096 objects is read entry by entry', () => {
  test('every object reads back byte for byte from a fresh context (disk)', async () => {
    const dir = await tempRepoDir();
    const writer = await openGit({ dir, fsync: false, maintenance: false });
    const oids = await inBatch(writer, async () => Promise.all(blobs.map(async (b) => writeBlob(writer, b))));
    expect((await listPacks(writer)).map((p) => p.count)).toEqual([5000]);
    const reader = await openGit({ dir });
    for (const [i, oid] of oids.entries()) {
      if (i % 7 !== 0 && i < 4990) continue; // a sample, and the last entries of the pack (reads near its end)
      expect(Buffer.from(await readBlob(reader, oid)).equals(blobs[i] as Buffer)).toBe(true);
    }
  });

  test.each([{ sync: true }, { sync: false }])('the reads of a batch share one open file of the pack, closed when the batch ends (synchronous calls: $sync)', async ({ sync }) => {
    const dir = await tempRepoDir();
    const writer = await openGit({ dir, fsync: false, maintenance: false });
    const oids = await inBatch(writer, async () => Promise.all(blobs.map(async (b) => writeBlob(writer, b))));
    const nodeFs = await import('node:fs');
    const calls = { open: 0, close: 0 };
    const packFds = new Set<number>();
    const counting = {
      ...nodeFs,
      // the pack opened for reading at a position, counted whichever way: openSync / closeSync, or a handle
      ...(sync
        ? {
            openSync: (path: string, flags: string) => {
              const fd = nodeFs.openSync(path, flags);
              if (path.endsWith('.pack') && flags === 'r') (calls.open++, packFds.add(fd));
              return fd;
            },
            closeSync: (fd: number) => {
              if (packFds.delete(fd)) calls.close++;
              nodeFs.closeSync(fd);
            },
          }
        : { readSync: undefined }),
      promises: {
        ...nodeFs.promises,
        open: async (path: string, flags: string) => {
          const h = await nodeFs.promises.open(path, flags);
          if (!path.endsWith('.pack') || flags !== 'r') return h;
          calls.open++;
          return { writeFile: h.writeFile.bind(h), datasync: h.datasync.bind(h), read: h.read.bind(h), close: async () => { calls.close++; await h.close(); } };
        },
      },
    };
    const reader = await openGit({ dir, fs: counting as unknown as typeof nodeFs });
    const sample = [0, 17, 1234, 2500, 4999];
    await inBatch(reader, async () => {
      for (const i of sample) expect(Buffer.from(await readBlob(reader, oids[i] as string)).equals(blobs[i] as Buffer)).toBe(true);
      expect(calls).toEqual({ open: 1, close: 0 });
    });
    expect(calls).toEqual({ open: 1, close: 1 });
    // outside a batch, one object read (its whole delta chain) opens the pack once and closes it
    expect(Buffer.from(await readBlob(reader, oids[3000] as string)).equals(blobs[3000] as Buffer)).toBe(true);
    expect(calls).toEqual({ open: 2, close: 2 });
  });

  test('a file system whose handles cannot read at a position reads the pack whole', async () => {
    const dir = await tempRepoDir();
    const writer = await openGit({ dir, fsync: false, maintenance: false });
    const oids = await inBatch(writer, async () => Promise.all(blobs.map(async (b) => writeBlob(writer, b))));
    const nodeFs = await import('node:fs');
    const noRead = {
      ...nodeFs,
      readSync: undefined,
      promises: {
        ...nodeFs.promises,
        open: async (path: string, flags: string) => {
          const h = await nodeFs.promises.open(path, flags);
          return { writeFile: h.writeFile.bind(h), datasync: h.datasync.bind(h), close: h.close.bind(h) };
        },
      },
    };
    const reader = await openGit({ dir, fs: noRead as unknown as typeof nodeFs });
    for (const i of [0, 1234, 4999]) expect(Buffer.from(await readBlob(reader, oids[i] as string)).equals(blobs[i] as Buffer)).toBe(true);
  });

  test('a small pack another process wrote is read entry by entry too: a cold start does not read the packs whole', async () => {
    const dir = await tempRepoDir();
    const writer = await openGit({ dir, fsync: false, maintenance: false });
    const oids = await inBatch(writer, async () => Promise.all(blobs.slice(0, 300).map(async (b) => writeBlob(writer, b))));
    const reader = await openGit({ dir });
    const read = await Promise.all([3, 150, 299].map(async (i) => Buffer.from(await readBlob(reader, oids[i] as string))));
    expect(read.map((b, k) => b.equals(blobs[[3, 150, 299][k] as number] as Buffer))).toEqual([true, true, true]);
    expect([...stateOf(reader).packs.values()].map((p) => p.pack)).toEqual([undefined]);
  });

  test('without reads at a position, concurrent first reads of a pack share one read of it', async () => {
    const dir = await tempRepoDir();
    const writer = await openGit({ dir, fsync: false, maintenance: false });
    const oids = await inBatch(writer, async () => Promise.all(blobs.slice(0, 300).map(async (b) => writeBlob(writer, b))));
    const nodeFs = await import('node:fs');
    let packReads = 0;
    const noRead = {
      ...nodeFs,
      readSync: undefined,
      promises: {
        ...nodeFs.promises,
        readFile: async (path: string) => {
          if (path.endsWith('.pack')) packReads++;
          return nodeFs.promises.readFile(path);
        },
        open: async (path: string, flags: string) => {
          const h = await nodeFs.promises.open(path, flags);
          return { writeFile: h.writeFile.bind(h), datasync: h.datasync.bind(h), close: h.close.bind(h) };
        },
      },
    };
    const reader = await openGit({ dir, fs: noRead as unknown as typeof nodeFs });
    const read = await Promise.all(oids.slice(0, 40).map(async (oid) => readBlob(reader, oid)));
    expect(read.every((b, i) => Buffer.from(b).equals(blobs[i] as Buffer))).toBe(true);
    expect(packReads).toBe(1);
  });
});
