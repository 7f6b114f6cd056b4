import { InvalidNameError } from './errors.js';
import type { GitContext } from './git-context.js';
import { componentProblem } from './internal/ref-name.js';
import { readPackedRefs } from './internal/ref-io.js';
import { walkRefFiles } from './internal/walk-refs.js';

/**
 * Lists the refs whose full name starts with `prefix`, loose and packed, sorted, without `.lock` files.
 *
 * @param ctx - the repository
 * @param prefix - e.g. `refs/ctxgit/sessions/`; must start with `refs/`
 * @returns full ref names in byte order
 * @throws {@link InvalidNameError} when `prefix` does not start with `refs/` or has a `..` component
 * @example
 * ```ts
 * const sessions = await listRefs(ctx, 'refs/ctxgit/sessions/');
 * ```
 */
export async function listRefs(ctx: GitContext, prefix: string): Promise<readonly string[]> {
  if (typeof prefix !== 'string' || !prefix.startsWith('refs/')) throw new InvalidNameError(typeof prefix === 'string' ? prefix : `(a ${typeof prefix})`, 'ref', "prefix does not start with 'refs/'");
  const dirPart = prefix.slice(0, prefix.lastIndexOf('/'));
  for (const component of dirPart.split('/')) {
    const problem = componentProblem(component);
    if (problem !== undefined) throw new InvalidNameError(prefix, 'ref', `component ${JSON.stringify(component)} ${problem}`);
  }
  const found = new Set<string>();
  for (const file of await walkRefFiles(ctx, dirPart)) {
    if (file.startsWith(prefix) && componentProblem(file.slice(file.lastIndexOf('/') + 1)) === undefined) found.add(file);
  }
  for (const ref of (await readPackedRefs(ctx)).keys()) if (ref.startsWith(prefix)) found.add(ref);
  return [...found].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}
