import { AgentRunningError, InvalidArgumentError } from './errors.js';
import { nextRecord } from './internal/next-record.js';
import { readSession } from './internal/read-session.js';
import type { NodeStore, SessionRecord } from './node-store.js';

/**
 * Takes or releases a session's agent-running lock. While it is held, {@link retryNode}, {@link editNode} and
 * {@link checkout} are refused; appends are allowed. Taking a held lock is refused (one agent run per session);
 * releasing a free lock writes nothing.
 *
 * @param store - The node store.
 * @param session - The session.
 * @param running - `true` to take the lock, `false` to release it.
 * @returns The session record after the change.
 * @throws {@link AgentRunningError} when taking a held lock; {@link SessionNotFoundError};
 *   {@link DagConflictError} when another writer got there first (retryable).
 * @example
 * ```ts
 * await setAgentRunning(store, 'chat', true);
 * try { ...agent appends... } finally { await setAgentRunning(store, 'chat', false); }
 * ```
 */
export async function setAgentRunning(store: NodeStore, session: string, running: boolean): Promise<SessionRecord> {
  if (typeof running !== 'boolean') throw new InvalidArgumentError({ argument: 'running', reason: 'expected a boolean' });
  const rec = await readSession(store, session);
  if (running && rec.agentRunning) throw new AgentRunningError({ session: rec.id, operation: 'setAgentRunning' });
  if (running === rec.agentRunning) return rec;
  const next = nextRecord(rec, { agentRunning: running });
  await store.write({ expected: rec, next, nodes: [] });
  return next;
}
