import { GitArgumentError } from './errors.js';
import type { GitContext } from './git-context.js';
import { toBytes } from './internal/fs-ops.js';
import { writeObject } from './internal/object-io.js';
import { LONE_SURROGATE } from './internal/tree-codec.js';

/**
 * Stores `data` as a blob (a string is written as UTF-8) and returns its oid; writing an existing blob is a no-op.
 *
 * @param ctx - the repository
 * @param data - the content
 * @returns the blob's oid (SHA-1 as git computes it)
 * @example
 * ```ts
 * const oid = await writeBlob(ctx, 'hello\n'); // 'ce013625030ba8dba906f756967f9e9ca394464a'
 * ```
 */
export async function writeBlob(ctx: GitContext, data: Uint8Array | string): Promise<string> {
  if (typeof data === 'string') {
    if (LONE_SURROGATE.test(data)) throw new GitArgumentError('data', 'contains a lone surrogate, which UTF-8 cannot store; pass bytes or well-formed text');
  } else if (!(data instanceof Uint8Array)) {
    throw new GitArgumentError('data', 'expected a Uint8Array or a string');
  }
  return writeObject(ctx, 'blob', toBytes(data));
}
