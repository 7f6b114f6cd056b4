import { SessionExistsError } from './errors.js';
import type { NodeStore, SessionRecord } from './node-store.js';
import { validateSessionName } from './validate-session-name.js';

/**
 * Creates an empty session: no HEAD, `nextSeq` 0, agent not running, version 1.
 *
 * @param store - Where the session lives.
 * @param id - The session name (see `validateSessionName`).
 * @returns The stored record.
 * @throws {@link InvalidSessionNameError}, {@link SessionExistsError}; {@link DagConflictError} if created concurrently.
 * @example
 * ```ts
 * const rec = await createSession(store, 'chat'); // { id: 'chat', head: null, nextSeq: 0, agentRunning: false, version: 1 }
 * ```
 */
export async function createSession(store: NodeStore, id: string): Promise<SessionRecord> {
  const name = validateSessionName(id);
  if ((await store.getSession(name)) !== undefined) throw new SessionExistsError({ session: name });
  const next: SessionRecord = { id: name, head: null, nextSeq: 0, agentRunning: false, version: 1 };
  await store.write({ expected: null, next, nodes: [] });
  return next;
}
