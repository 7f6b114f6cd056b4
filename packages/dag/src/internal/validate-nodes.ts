import { CycleError, DuplicateIdError, InvalidEdgeError, MissingNodeError, type NodeReference } from '../errors.js';
import type { Node } from '../node.js';
import type { NodeStore } from '../node-store.js';
import { checkNode } from './check-node.js';

/**
 * Validates a batch of new nodes against the store before anything is written: shape of each node, ids new to
 * the store and the batch, no cycle among the batch, every edge target present, `caller` an assistant, a
 * `predecessor` not a tool node, and predecessor/caller seq lower than the node's.
 */
export async function validateNodes(store: NodeStore, nodes: readonly Node[], maxOutputBytes: number): Promise<void> {
  const batch = new Map<string, Node>();
  for (const node of nodes) {
    checkNode(node, maxOutputBytes);
    if (batch.has(node.id)) throw new DuplicateIdError({ id: node.id });
    batch.set(node.id, node);
  }
  for (const id of batch.keys()) if ((await store.getNode(id)) !== undefined) throw new DuplicateIdError({ id });
  findCycle(batch);
  const cache = new Map<string, Node | undefined>();
  const lookup = async (id: string): Promise<Node | undefined> => {
    const b = batch.get(id);
    if (b !== undefined) return b;
    if (!cache.has(id)) cache.set(id, await store.getNode(id));
    return cache.get(id);
  };
  for (const node of nodes) {
    for (const [reference, target] of edges(node)) {
      const t = await lookup(target);
      if (t === undefined) throw new MissingNodeError({ missing: target, reference, from: node.id });
      if (reference === 'reads') continue;
      if (reference === 'caller' && t.role !== 'assistant') throw new InvalidEdgeError({ id: node.id, reference, target, reason: `a caller must be an assistant node, ${target} is ${t.role}` });
      if (reference === 'predecessor' && t.role === 'tool') throw new InvalidEdgeError({ id: node.id, reference, target, reason: `a tool node is never a predecessor; follow its caller ${t.caller ?? ''} instead` });
      if (t.seq >= node.seq) throw new InvalidEdgeError({ id: node.id, reference, target, reason: `it has seq ${t.seq}, not lower than the node's seq ${node.seq}` });
    }
  }
}

function edges(node: Node): Array<[NodeReference, string]> {
  const out: Array<[NodeReference, string]> = [];
  if (node.predecessor !== undefined) out.push(['predecessor', node.predecessor]);
  if (node.caller !== undefined) out.push(['caller', node.caller]);
  for (const r of node.reads ?? []) out.push(['reads', r]);
  return out;
}

/** Iterative DFS over edges that stay inside the batch; throws on the first cycle found. */
function findCycle(batch: ReadonlyMap<string, Node>): void {
  const state = new Map<string, 1 | 2>();
  for (const start of batch.keys()) {
    if (state.has(start)) continue;
    const path: string[] = [];
    const stack: Array<{ id: string; next: string[] }> = [];
    const enter = (id: string): void => {
      state.set(id, 1);
      path.push(id);
      const node = batch.get(id);
      stack.push({ id, next: node === undefined ? [] : edges(node).map(([, t]) => t).filter((t) => batch.has(t)) });
    };
    enter(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      const t = top.next.pop();
      if (t === undefined) {
        state.set(top.id, 2);
        stack.pop();
        path.pop();
      } else if (state.get(t) === 1) {
        throw new CycleError({ ids: [...path.slice(path.indexOf(t)), t] });
      } else if (!state.has(t)) enter(t);
    }
  }
}
