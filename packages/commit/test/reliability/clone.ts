import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { Volume, createFsFromVolume } from 'memfs';
import type { FsLike } from '../../src/index.js';
import type { Storage } from './support.js';
import { tempDir } from './support.js';

async function copyTree(from: FsLike, to: FsLike, dir: string): Promise<void> {
  await to.promises.mkdir(dir, { recursive: true });
  for (const name of (await from.promises.readdir(dir)).map(String)) {
    const path = `${dir}/${name}`;
    if ((await from.promises.stat(path)).isDirectory()) await copyTree(from, to, path);
    else await to.promises.writeFile(path, await from.promises.readFile(path));
  }
}

/** A byte-for-byte copy of a storage's repository: a new memfs volume, or a copied temp dir. */
export async function cloneStorage(s: Storage): Promise<Storage> {
  if (s.name === 'memfs') {
    const fs = createFsFromVolume(new Volume()) as unknown as FsLike;
    await copyTree(s.fs, fs, s.gitdir);
    return { ...s, fs };
  }
  const dir = join(tempDir(), 'ctx.git');
  cpSync(s.gitdir, dir, { recursive: true });
  return { ...s, where: { dir }, gitdir: dir };
}
