import { CycleError, InvalidArgumentError, InvalidEdgeError, MissingNodeError } from './errors.js';
import { readNode } from './internal/read-node.js';
import type { Node } from './node.js';
import type { NodeStore } from './node-store.js';

/**
 * The branch of a head: its ancestor chain through `predecessor`, root first (which is seq order), with each
 * assistant node followed by its caller-children (tool nodes, in seq order, retried calls included). This is
 * the conversation as the rules consume it. Costs O(depth + tool nodes on the branch) store reads, whatever
 * the size of the store.
 *
 * @param store - The node store.
 * @param head - The last node of the branch (usually a session's HEAD); not a tool node.
 * @returns The nodes of the branch, frozen as the store returns them.
 * @throws {@link MissingNodeError} (head or a broken chain), {@link InvalidArgumentError} (a tool node),
 *   {@link CycleError} or {@link InvalidEdgeError} (a corrupt store: a cycle, or seqs not decreasing to the root).
 * @example
 * ```ts
 * const rec = await store.getSession('chat');
 * const view = rec?.head == null ? [] : await branchView(store, rec.head);
 * ```
 */
export async function branchView(store: NodeStore, head: string): Promise<Node[]> {
  const last = await readNode(store, head, 'head');
  if (last.role === 'tool') throw new InvalidArgumentError({ argument: 'head', reason: `${last.id} is a tool node; use its caller ${last.caller ?? ''}` });
  const chain: Node[] = [last];
  for (let node = last; node.predecessor !== undefined; ) {
    const prev = await store.getNode(node.predecessor);
    if (prev === undefined) throw new MissingNodeError({ missing: node.predecessor, reference: 'predecessor', from: node.id });
    // Seqs strictly decrease towards the root in a valid store, so a cycle shows up as a step that does not.
    if (prev.seq >= node.seq) {
      const ids = chain.map((n) => n.id);
      if (ids.includes(prev.id)) throw new CycleError({ ids: [...ids.slice(ids.indexOf(prev.id)), prev.id] });
      throw new InvalidEdgeError({ id: node.id, reference: 'predecessor', target: prev.id, reason: `it has seq ${prev.seq}, not lower than the node's seq ${node.seq} (corrupt store)` });
    }
    chain.push(prev);
    node = prev;
  }
  chain.reverse();
  const view: Node[] = [];
  for (const node of chain) {
    view.push(node);
    if (node.role !== 'assistant') continue;
    for (const id of await store.calleesOf(node.id)) {
      const tool = await store.getNode(id);
      if (tool === undefined) throw new MissingNodeError({ missing: id, reference: 'node' });
      view.push(tool);
    }
  }
  return view;
}
