import { CorruptObjectError } from '../errors.js';
import type { GitContext } from '../git-context.js';
import { readSmallFileOrNull } from './fs-ops.js';
import { isOid } from './oid.js';

function parseLoose(ref: string, bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString('utf8').trim();
  if (!isOid(text as unknown)) throw new CorruptObjectError(`ref ${ref}`, `holds ${JSON.stringify(text.slice(0, 60))}, not an object id`);
  return text;
}

/** The refs of `packed-refs` (written by `git pack-refs` / `git gc`), name → oid. */
export async function readPackedRefs(ctx: GitContext): Promise<Map<string, string>> {
  const refs = new Map<string, string>();
  const bytes = await readSmallFileOrNull(ctx, `${ctx.gitdir}/packed-refs`);
  if (bytes === null) return refs;
  for (const line of Buffer.from(bytes).toString('utf8').split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('^')) continue;
    const oid = line.slice(0, 40);
    if (!isOid(oid) || line[40] !== ' ') throw new CorruptObjectError('packed-refs', `bad line ${JSON.stringify(line.slice(0, 80))}`);
    refs.set(line.slice(41), oid);
  }
  return refs;
}

/** The oid a ref holds (loose file first, then packed-refs), or null. */
export async function readRefValue(ctx: GitContext, ref: string): Promise<string | null> {
  const loose = await readSmallFileOrNull(ctx, `${ctx.gitdir}/${ref}`);
  if (loose !== null) return parseLoose(ref, loose);
  return (await readPackedRefs(ctx)).get(ref) ?? null;
}
