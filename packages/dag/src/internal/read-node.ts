import { MissingNodeError, type NodeReference } from '../errors.js';
import type { Node } from '../node.js';
import type { NodeStore } from '../node-store.js';
import { validateNodeId } from '../validate-node-id.js';

/** Validates the id and reads the node, or throws {@link MissingNodeError}. */
export async function readNode(store: NodeStore, id: unknown, reference: NodeReference): Promise<Node> {
  const nodeId = validateNodeId(id);
  const node = await store.getNode(nodeId);
  if (node === undefined) throw new MissingNodeError({ missing: nodeId, reference });
  return node;
}
