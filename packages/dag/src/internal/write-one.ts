import type { Node } from '../node.js';
import type { NodeStore, SessionRecord } from '../node-store.js';
import { frozenCopy } from './frozen-copy.js';
import { makeNode, type NodeParts } from './make-node.js';
import { nextRecord } from './next-record.js';
import type { Resolved } from './resolve-options.js';
import { readClock } from './read-clock.js';
import { validateOrConflict } from './validate-or-conflict.js';

/**
 * Builds one node for `rec` with seq `max(nextSeq, parent.seq + 1)`, validates it, and writes it with the
 * record that follows (HEAD moves to it unless `moveHead` is false). Returns the node, frozen.
 */
export async function writeOne(
  store: NodeStore,
  rec: SessionRecord,
  parentSeq: number | undefined,
  parts: Omit<NodeParts, 'id' | 'session' | 'seq' | 'createdAt'>,
  opts: Resolved,
  moveHead: boolean,
): Promise<Node> {
  const seq = Math.max(rec.nextSeq, parentSeq === undefined ? 0 : parentSeq + 1);
  const node = makeNode({ ...parts, id: opts.ids(rec.id, seq), session: rec.id, seq, createdAt: readClock(opts.clock) });
  await validateOrConflict(store, rec.id, rec, [node], opts.maxOutputBytes);
  const next = nextRecord(rec, moveHead ? { head: node.id, nextSeq: seq + 1 } : { nextSeq: seq + 1 });
  await store.write({ expected: rec, next, nodes: [node] });
  return frozenCopy(node);
}
