import { createHash } from 'node:crypto';
import type { IdGenerator } from './options.js';

/**
 * The default {@link IdGenerator}: the first 16 hex digits of `sha256(session + "\0" + seq)`.
 * Deterministic (same session and seq, same id), a safe git path segment, and unique in a store because a
 * session never reuses a seq and session names hold no NUL.
 *
 * @param session - The session appending the node.
 * @param seq - The node's seq within that session.
 * @returns A 16-character lowercase hex id.
 * @example
 * ```ts
 * defaultNodeId('chat', 0); // always the same 16 hex digits
 * ```
 */
export function defaultNodeId(session: string, seq: number): string {
  return createHash('sha256').update(`${session}\0${seq}`).digest('hex').slice(0, 16);
}

