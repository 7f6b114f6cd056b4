import type { GitContext } from './git-context.js';
import { readTyped } from './internal/object-io.js';
import { assertOid } from './internal/oid.js';

/**
 * Reads a blob, verified against its oid.
 *
 * @param ctx - the repository
 * @param oid - the blob's id
 * @returns a fresh copy of its bytes
 * @throws {@link ObjectNotFoundError} when it does not exist, {@link ObjectTypeError} when `oid` is not a blob
 * @example
 * ```ts
 * const text = new TextDecoder().decode(await readBlob(ctx, oid));
 * ```
 */
export async function readBlob(ctx: GitContext, oid: string): Promise<Uint8Array> {
  assertOid('oid', oid);
  return new Uint8Array(await readTyped(ctx, oid, 'blob'));
}
