import { AgentRunningError, InvalidArgumentError } from './errors.js';
import { nextRecord } from './internal/next-record.js';
import { readNode } from './internal/read-node.js';
import { readSession } from './internal/read-session.js';
import type { NodeStore, SessionRecord } from './node-store.js';

/**
 * Moves a session's HEAD to any conversation node of the store (of this or another session). Display-only:
 * nothing runs, no node is written or changed; the next append goes under the new HEAD. Checking out the
 * current HEAD writes nothing and returns the record as is. Refused while an agent run is active (the agent
 * appends under HEAD), and for tool nodes (check out their caller: its branch view shows them).
 *
 * @param store - The node store.
 * @param session - The session whose HEAD moves.
 * @param nodeId - The new HEAD.
 * @returns The session record after the move.
 * @throws {@link SessionNotFoundError}, {@link MissingNodeError}, {@link AgentRunningError},
 *   {@link InvalidArgumentError} (a tool node), {@link DagConflictError}.
 * @example
 * ```ts
 * await checkout(store, 'chat', firstAnswer.id); // HEAD back on an earlier branch
 * ```
 */
export async function checkout(store: NodeStore, session: string, nodeId: string): Promise<SessionRecord> {
  const rec = await readSession(store, session);
  const node = await readNode(store, nodeId, 'node');
  if (node.role === 'tool') throw new InvalidArgumentError({ argument: 'nodeId', reason: `${node.id} is a tool node; check out its caller ${node.caller ?? ''}` });
  if (rec.head === node.id) return rec;
  if (rec.agentRunning) throw new AgentRunningError({ session: rec.id, operation: 'checkout' });
  const next = nextRecord(rec, { head: node.id });
  await store.write({ expected: rec, next, nodes: [] });
  return next;
}
