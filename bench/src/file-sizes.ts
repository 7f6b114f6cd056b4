import type { FsLike } from '@ctxgit/commit';

/** Every file under `dir` of `fs` (a repository on disk or on memfs), path → size in bytes. */
export async function fileSizes(fs: FsLike, dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const walk = async (d: string): Promise<void> => {
    for (const name of (await fs.promises.readdir(d)).map(String)) {
      const p = `${d}/${name}`;
      const st = await fs.promises.stat(p);
      if (st.isDirectory()) await walk(p);
      else out.set(p, Number((st as unknown as { size: number }).size));
    }
  };
  await walk(dir);
  return out;
}

/** Total bytes of {@link fileSizes}. */
export const totalBytes = (files: ReadonlyMap<string, number>): number => [...files.values()].reduce((n, x) => n + x, 0);
