import type { AttachSource } from './attach-source.js';
import { InvalidArgumentError } from './errors.js';
import { readNode } from './internal/read-node.js';
import { readSession } from './internal/read-session.js';
import { appendNode } from './append-node.js';
import type { Node } from './node.js';
import type { NodeStore } from './node-store.js';
import type { DagOptions, NodeMetadata } from './options.js';
import { validateNodeId } from './validate-node-id.js';
import { validateSessionName } from './validate-session-name.js';
import { describeValue } from './internal/describe-value.js';

/** Options of {@link appendAttach}. */
export interface AttachOptions extends DagOptions {
  /** Role of the pointer node. @defaultValue `'user'` (the user brought the context in) */
  readonly role?: 'user' | 'system';
  /** Text of the pointer node. @defaultValue `[attached session <session> at node <head>, commit <commit>]` */
  readonly output?: string;
  /** Extra metadata; the `attach` key is reserved. */
  readonly metadata?: NodeMetadata;
}

const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Appends an attach pointer node under HEAD (HEAD advances): a `user` (default) or `system` node whose
 * `metadata.attach` is `{ session, head, commit }`. The attached context is not copied into the DAG; the commit
 * layer expands the pointer once across turns. The source session and its head node must be in the store.
 *
 * @param store - The node store.
 * @param session - The session that attaches.
 * @param source - What is attached; see {@link AttachSource}.
 * @param opts - Role, text and metadata of the pointer, plus {@link DagOptions}.
 * @returns The pointer node.
 * @throws {@link SessionNotFoundError}, {@link MissingNodeError} (source head), {@link InvalidArgumentError}
 *   (bad commit id or role, reserved metadata key), and the errors of {@link appendNode}.
 * @example
 * ```ts
 * await appendAttach(store, 'chat', { session: 'research', head: r.id, commit: '4b825dc642cb6eb9a060e54bf8d69288fbee4904' });
 * ```
 */
export async function appendAttach(store: NodeStore, session: string, source: AttachSource, opts?: AttachOptions): Promise<Node> {
  if (typeof source !== 'object' || source === null) throw new InvalidArgumentError({ argument: 'source', reason: 'expected { session, head, commit }' });
  const from = validateSessionName(source.session);
  const head = validateNodeId(source.head);
  if (typeof source.commit !== 'string' || !COMMIT.test(source.commit)) throw new InvalidArgumentError({ argument: 'source.commit', reason: 'expected 40 or 64 lowercase hex digits' });
  const role = opts?.role ?? 'user';
  if (role !== 'user' && role !== 'system') throw new InvalidArgumentError({ argument: 'opts.role', reason: `an attach pointer is a user or system node, not ${describeValue(role)}` });
  if (opts?.metadata !== undefined && 'attach' in opts.metadata) throw new InvalidArgumentError({ argument: 'opts.metadata.attach', reason: 'reserved for the attach source' });
  await readSession(store, from);
  await readNode(store, head, 'head');
  const attach = { session: from, head, commit: source.commit };
  const output = opts?.output ?? `[attached session ${from} at node ${head}, commit ${source.commit}]`;
  const dag: DagOptions = {
    ...(opts?.clock === undefined ? {} : { clock: opts.clock }),
    ...(opts?.ids === undefined ? {} : { ids: opts.ids }),
    ...(opts?.maxOutputBytes === undefined ? {} : { maxOutputBytes: opts.maxOutputBytes }),
  };
  return appendNode(store, session, { role, output, metadata: { ...opts?.metadata, attach } }, dag);
}
