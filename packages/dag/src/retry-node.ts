import { appendSibling } from './internal/append-sibling.js';
import type { Node } from './node.js';
import type { NodeStore } from './node-store.js';
import type { DagOptions } from './options.js';

/**
 * Appends a same-content sibling of a node: same parent (predecessor, or caller for a tool node, or a root of
 * the same session), same role, name, input, output, reads and metadata; new id, seq and createdAt. HEAD moves
 * to the new node, except for a tool node (HEAD stays). The original is untouched; `siblingIndex` lists both.
 *
 * @param store - The node store.
 * @param session - The session that appends the sibling.
 * @param nodeId - The node to retry.
 * @param opts - Clock, id generator and output limit; see {@link DagOptions}.
 * @returns The new sibling.
 * @throws {@link AgentRunningError} while the session's agent run is active; {@link SessionNotFoundError},
 *   {@link MissingNodeError}, {@link InvalidArgumentError} (a root of another session), {@link DagConflictError}.
 * @example
 * ```ts
 * const again = await retryNode(store, 'chat', question.id);
 * (await siblingIndex(store, again.id)).index; // 2
 * ```
 */
export async function retryNode(store: NodeStore, session: string, nodeId: string, opts?: DagOptions): Promise<Node> {
  return appendSibling(
    store,
    session,
    nodeId,
    'retryNode',
    (n) => ({ name: n.name, input: n.input, output: n.output, reads: n.reads, metadata: n.metadata }),
    opts,
  );
}
