import type { GitContext } from './git-context.js';
import { hasObjectInternal } from './internal/object-io.js';
import { assertOid } from './internal/oid.js';

/**
 * Tells whether an object is stored (loose or packed).
 *
 * @param ctx - the repository
 * @param oid - the object id
 * @returns true when it exists
 * @example
 * ```ts
 * if (!(await hasObject(ctx, oid))) throw new Error('missing');
 * ```
 */
export async function hasObject(ctx: GitContext, oid: string): Promise<boolean> {
  assertOid('oid', oid);
  return hasObjectInternal(ctx, oid);
}
