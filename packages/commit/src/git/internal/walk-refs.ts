import type { GitContext } from '../git-context.js';
import { errnoOf, io, isNotFound } from './fs-ops.js';

/** Every file below `gitdir/<dir>` (recursively), as paths relative to gitdir. */
export async function walkRefFiles(ctx: GitContext, dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await ctx.fs.promises.readdir(`${ctx.gitdir}/${dir}`)).map(String);
  } catch (err) {
    if (isNotFound(err)) return [];
    return io('readdir', `${ctx.gitdir}/${dir}`, () => Promise.reject(err));
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    const rel = `${dir}/${name}`;
    try {
      const stat = await ctx.fs.promises.stat(`${ctx.gitdir}/${rel}`);
      if (stat.isDirectory()) out.push(...(await walkRefFiles(ctx, rel)));
      else out.push(rel);
    } catch (err) {
      if (errnoOf(err) !== 'ENOENT') return io('stat', `${ctx.gitdir}/${rel}`, () => Promise.reject(err));
    }
  }
  return out;
}
