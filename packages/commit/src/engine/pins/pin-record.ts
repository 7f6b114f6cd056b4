import type { Node, NodeInput } from '@ctxgit/dag';

/** The metadata key of a pin record node; reserved: only `Session.pin` and `Session.unpin` write it. */
export const PIN_METADATA = 'pin';

/** What a pin record node asks of the next commit. */
export interface PinRecord {
  /** The record node. */
  readonly node: string;
  /** Key of the pinned (or released) item: the node id for a node of the session. */
  readonly key: string;
  readonly pinned: boolean;
}

/** The pin record a node holds, when it is one: a `system` node whose `metadata.pin` is `{ key, pinned }`. */
export function pinRecordOf(node: Node): PinRecord | undefined {
  const p = node.metadata?.[PIN_METADATA];
  if (node.role !== 'system' || typeof p !== 'object' || p === null || Array.isArray(p)) return undefined;
  const r = p as Record<string, unknown>;
  if (typeof r['key'] !== 'string' || typeof r['pinned'] !== 'boolean') return undefined;
  return { node: node.id, key: r['key'], pinned: r['pinned'] };
}

/** The node that records a pin or its release. */
export function pinRecordInput(key: string, pinned: boolean): NodeInput {
  return { role: 'system', output: `[ctxgit ${pinned ? 'pin' : 'unpin'} ${key}]`, metadata: { [PIN_METADATA]: { key, pinned } } };
}
