import { InvalidArgumentError, SessionExistsError } from './errors.js';
import { readNode } from './internal/read-node.js';
import { readSession } from './internal/read-session.js';
import type { NodeStore, SessionRecord } from './node-store.js';
import { validateSessionName } from './validate-session-name.js';

/** Options of {@link forkSession}. */
export interface ForkOptions {
  /** The node the new session's HEAD points at (any conversation node of the store). @defaultValue the HEAD of `from` */
  readonly at?: string;
}

/**
 * Creates a session whose HEAD is an existing node, recorded as `forkedFrom: { session: from, node }`.
 * No node is written or copied: the new session's appends hang under that node, with seqs continuing after
 * the fork node's (`nextSeq = node.seq + 1`). The source session is not changed.
 *
 * @param store - The node store.
 * @param from - The session forked from.
 * @param newId - The new session's name.
 * @param opts - Where to fork; see {@link ForkOptions}.
 * @returns The new session's record (version 1, agent not running).
 * @throws {@link SessionNotFoundError}, {@link SessionExistsError}, {@link MissingNodeError},
 *   {@link InvalidArgumentError} (empty source without `at`, or a tool node), {@link DagConflictError}.
 * @example
 * ```ts
 * const b = await forkSession(store, 'chat', 'chat-b', { at: answer.id });
 * ```
 */
export async function forkSession(store: NodeStore, from: string, newId: string, opts?: ForkOptions): Promise<SessionRecord> {
  const source = await readSession(store, from);
  const name = validateSessionName(newId);
  const at = opts?.at ?? source.head;
  if (at === null) throw new InvalidArgumentError({ argument: 'opts.at', reason: `session ${source.id} is empty; name the node to fork at` });
  const node = await readNode(store, at, 'at');
  if (node.role === 'tool') throw new InvalidArgumentError({ argument: 'opts.at', reason: `${node.id} is a tool node; fork at its caller ${node.caller ?? ''}` });
  if ((await store.getSession(name)) !== undefined) throw new SessionExistsError({ session: name });
  const next: SessionRecord = { id: name, head: node.id, nextSeq: node.seq + 1, agentRunning: false, forkedFrom: { session: source.id, node: node.id }, version: 1 };
  await store.write({ expected: null, next, nodes: [] });
  return next;
}
