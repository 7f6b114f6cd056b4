import type { GitContext } from './git-context.js';
import { assertRefName } from './internal/ref-name.js';
import { readRefValue } from './internal/ref-io.js';

/**
 * Reads the oid a ref points at: its loose file, else its line in `packed-refs` (after `git gc`).
 *
 * @param ctx - the repository
 * @param ref - the full name, `refs/...`
 * @returns the oid, or null when the ref does not exist
 * @throws {@link InvalidNameError} for a name git would refuse, {@link CorruptObjectError} for a damaged ref file
 * @example
 * ```ts
 * const head = await readRef(ctx, 'refs/ctxgit/sessions/chat-42/dag');
 * ```
 */
export async function readRef(ctx: GitContext, ref: string): Promise<string | null> {
  assertRefName(ref);
  return readRefValue(ctx, ref);
}
