import { readNode } from './internal/read-node.js';
import type { NodeStore } from './node-store.js';
import type { SiblingPosition } from './sibling-position.js';

/**
 * The position of a node among its siblings: the children of its predecessor, the callees of its caller (for a
 * tool node: every call of that assistant, retries included), or the roots of its session.
 *
 * @param store - The node store.
 * @param nodeId - The node.
 * @returns `{ index, total, ids }`, `index` 1-based.
 * @throws {@link MissingNodeError}, {@link InvalidIdError}.
 * @example
 * ```ts
 * const { index, total } = await siblingIndex(store, answer.id); // render `< ${index}/${total} >`
 * ```
 */
export async function siblingIndex(store: NodeStore, nodeId: string): Promise<SiblingPosition> {
  const node = await readNode(store, nodeId, 'node');
  const ids =
    node.predecessor !== undefined ? await store.childrenOf(node.predecessor) : node.caller !== undefined ? await store.calleesOf(node.caller) : await store.rootsOf(node.session);
  return { index: ids.indexOf(node.id) + 1, total: ids.length, ids: [...ids] };
}
