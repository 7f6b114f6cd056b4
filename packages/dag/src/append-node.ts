import { InvalidArgumentError, InvalidEdgeError } from './errors.js';
import { normalizeInput } from './internal/normalize-input.js';
import { readNode } from './internal/read-node.js';
import { readSession } from './internal/read-session.js';
import { resolveOptions } from './internal/resolve-options.js';
import { writeOne } from './internal/write-one.js';
import type { Node } from './node.js';
import type { NodeInput } from './node-input.js';
import type { NodeStore } from './node-store.js';
import type { DagOptions } from './options.js';
import { describeValue } from './internal/describe-value.js';

/**
 * Appends a node to a session.
 *
 * A non-tool node is appended under HEAD (as a root when HEAD is `null`) and HEAD advances to it. A `tool` node
 * hangs under `input.caller` (an assistant node) and HEAD does not move: after an assistant and its tool calls,
 * HEAD stays at the assistant, so the next node (e.g. the assistant's follow-up) follows it. The node's seq is
 * `max(nextSeq, seq of its predecessor or caller + 1)`; its id is `opts.ids(session, seq)`. Appending is allowed
 * while an agent run is active (the agent itself appends).
 *
 * @param store - The node store.
 * @param session - The session that appends.
 * @param input - The node content.
 * @param opts - Clock, id generator and output limit; see {@link DagOptions}.
 * @returns The stored node.
 * @throws {@link SessionNotFoundError}, {@link UnknownRoleError}, {@link BothPredecessorAndCallerError},
 *   {@link MissingNodeError} (caller or reads), {@link InvalidEdgeError}, {@link NotJsonError},
 *   {@link OutputTooLargeError}, {@link InvalidIdError}, {@link InvalidArgumentError}, {@link DuplicateIdError},
 *   {@link DagConflictError} (retryable). Nothing is written when it throws.
 * @example
 * ```ts
 * const q = await appendNode(store, 'chat', { role: 'user', output: 'list files' });
 * const a = await appendNode(store, 'chat', { role: 'assistant', output: '' });
 * await appendNode(store, 'chat', { role: 'tool', name: 'ls', input: { path: '.' }, output: 'a.txt', caller: a.id });
 * ```
 */
export async function appendNode(store: NodeStore, session: string, input: NodeInput, opts?: DagOptions): Promise<Node> {
  const o = resolveOptions(opts);
  const content = normalizeInput(input);
  const rec = await readSession(store, session);
  if (content.role === 'tool') {
    if (content.caller === undefined) throw new InvalidArgumentError({ argument: 'input.caller', reason: 'a tool node needs the assistant node that issued it' });
    const caller = await readNode(store, content.caller, 'caller');
    return writeOne(store, rec, caller.seq, { ...content, caller: caller.id }, o, false);
  }
  if (content.caller !== undefined) {
    throw new InvalidEdgeError({ id: '(new node)', reference: 'caller', target: describeValue(content.caller), reason: `only tool nodes have a caller, this one is ${describeValue(content.role)}` });
  }
  const head = rec.head === null ? undefined : await readNode(store, rec.head, 'head');
  return writeOne(store, rec, head?.seq, { ...content, predecessor: head?.id }, o, true);
}
