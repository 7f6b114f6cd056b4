import { AgentRunningError, InvalidArgumentError } from '../errors.js';
import type { Node } from '../node.js';
import type { NodeStore } from '../node-store.js';
import type { DagOptions } from '../options.js';
import type { NodeParts } from './make-node.js';
import { readNode } from './read-node.js';
import { readSession } from './read-session.js';
import { resolveOptions } from './resolve-options.js';
import { writeOne } from './write-one.js';

/** What a sibling may differ in. */
export type SiblingContent = Pick<NodeParts, 'name' | 'input' | 'output' | 'reads' | 'metadata'>;

/**
 * Appends a sibling of `nodeId` (same predecessor, same caller, or a root of the same session) with `content`
 * made from the original; HEAD moves to it unless it is a tool node. Refused while an agent run is active.
 */
export async function appendSibling(
  store: NodeStore,
  session: string,
  nodeId: string,
  operation: 'retryNode' | 'editNode',
  content: (original: Node) => SiblingContent,
  opts: DagOptions | undefined,
): Promise<Node> {
  const o = resolveOptions(opts);
  const rec = await readSession(store, session);
  if (rec.agentRunning) throw new AgentRunningError({ session: rec.id, operation });
  const original = await readNode(store, nodeId, 'node');
  const parentId = original.predecessor ?? original.caller;
  if (parentId === undefined && original.session !== rec.id) {
    throw new InvalidArgumentError({ argument: 'nodeId', reason: `${original.id} is a root of session ${original.session}; only that session can add a root sibling` });
  }
  const parent = parentId === undefined ? undefined : await readNode(store, parentId, original.predecessor === undefined ? 'caller' : 'predecessor');
  const parts = { role: original.role, ...content(original), predecessor: original.predecessor, caller: original.caller };
  return writeOne(store, rec, parent?.seq, parts, o, original.role !== 'tool');
}
