import { InvalidArgumentError, InvalidEdgeError } from './errors.js';
import { frozenCopy } from './internal/frozen-copy.js';
import { makeNode } from './internal/make-node.js';
import { nextRecord } from './internal/next-record.js';
import { normalizeInput } from './internal/normalize-input.js';
import { readClock } from './internal/read-clock.js';
import { readNode } from './internal/read-node.js';
import { readSession } from './internal/read-session.js';
import { resolveOptions } from './internal/resolve-options.js';
import { validateOrConflict } from './internal/validate-or-conflict.js';
import type { Node } from './node.js';
import type { NodeInput } from './node-input.js';
import type { NodeStore } from './node-store.js';
import type { DagOptions } from './options.js';

/**
 * One node of {@link appendNodes}: a {@link NodeInput} whose `caller` may also be the index of an earlier
 * assistant input of the same batch.
 */
export type BatchNodeInput = Omit<NodeInput, 'caller'> & { readonly caller?: string | number };

/**
 * Appends several nodes to a session in one atomic write, each as {@link appendNode} would one after the other: a
 * non-tool node under HEAD (HEAD advances to it), a `tool` node under its `caller` (a stored assistant node, or
 * the index of an assistant input earlier in the batch). Every node is built and validated before anything is
 * written; a failure writes nothing.
 *
 * @param store - The node store.
 * @param session - The session that appends.
 * @param inputs - The nodes' content, in order (at least one).
 * @param opts - Clock, id generator and output limit; see {@link DagOptions}.
 * @returns The stored nodes, in input order.
 * @throws every error of {@link appendNode}; {@link InvalidArgumentError} for an empty batch or a caller index that
 *   names no earlier input. Nothing is written when it throws.
 * @example
 * ```ts
 * const [q, a, t] = await appendNodes(store, 'chat', [
 *   { role: 'user', output: 'list files' },
 *   { role: 'assistant', output: '' },
 *   { role: 'tool', name: 'ls', input: { path: '.' }, output: 'a.txt', caller: 1 },
 * ]);
 * ```
 */
export async function appendNodes(store: NodeStore, session: string, inputs: readonly BatchNodeInput[], opts?: DagOptions): Promise<Node[]> {
  const o = resolveOptions(opts);
  if (!Array.isArray(inputs) || inputs.length === 0) throw new InvalidArgumentError({ argument: 'inputs', reason: 'expected a non-empty array of node inputs' });
  const rec = await readSession(store, session);
  const nodes: Node[] = [];
  let head = rec.head === null ? undefined : await readNode(store, rec.head, 'head');
  let nextSeq = rec.nextSeq;
  for (let i = 0; i < inputs.length; i++) {
    const raw: unknown = inputs[i];
    const callerRef = typeof raw === 'object' && raw !== null ? (raw as { caller?: unknown }).caller : undefined;
    const batchCaller = typeof callerRef === 'number' ? nodes[callerRef] : undefined;
    if (typeof callerRef === 'number' && (batchCaller === undefined || !Number.isSafeInteger(callerRef) || callerRef < 0)) {
      throw new InvalidArgumentError({ argument: `inputs[${i}].caller`, reason: `${callerRef} is not the index of an earlier input of the batch` });
    }
    const content = normalizeInput(batchCaller === undefined ? raw : { ...(raw as object), caller: batchCaller.id });
    const createdAt = readClock(o.clock);
    if (content.role === 'tool') {
      if (content.caller === undefined) throw new InvalidArgumentError({ argument: `inputs[${i}].caller`, reason: 'a tool node needs the assistant node that issued it' });
      const caller = batchCaller ?? (await readNode(store, content.caller, 'caller'));
      const seq = Math.max(nextSeq, caller.seq + 1);
      nodes.push(makeNode({ ...content, caller: caller.id, id: o.ids(rec.id, seq), session: rec.id, seq, createdAt }));
      nextSeq = seq + 1;
      continue;
    }
    if (content.caller !== undefined) {
      throw new InvalidEdgeError({ id: '(new node)', reference: 'caller', target: String(content.caller), reason: `only tool nodes have a caller, this one is ${String(content.role)}` });
    }
    const seq = Math.max(nextSeq, head === undefined ? 0 : head.seq + 1);
    const node = makeNode({ ...content, predecessor: head?.id, id: o.ids(rec.id, seq), session: rec.id, seq, createdAt });
    nodes.push(node);
    head = node;
    nextSeq = seq + 1;
  }
  await validateOrConflict(store, rec.id, rec, nodes, o.maxOutputBytes);
  await store.write({ expected: rec, next: nextRecord(rec, { head: head?.id ?? null, nextSeq }), nodes });
  return nodes.map(frozenCopy);
}
