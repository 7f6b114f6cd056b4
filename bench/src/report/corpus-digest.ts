import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * sha256 over the bytes of every file under `dir`, concatenated in sorted relative-path order (`/`-separated,
 * compared by code unit), with the number of files.
 * @example
 * ```ts
 * const { digest, files } = await corpusDigest('/work/shared/corpus');
 * ```
 */
export async function corpusDigest(dir: string): Promise<{ digest: string; files: number }> {
  const files = (await listFiles(dir))
    .map((path) => ({ path, rel: relative(dir, path).split(sep).join('/') }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const hash = createHash('sha256');
  for (const file of files) hash.update(await readFile(file.path));
  return { digest: hash.digest('hex'), files: files.length };
}
