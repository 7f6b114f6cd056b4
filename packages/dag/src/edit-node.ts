import { InvalidArgumentError } from './errors.js';
import { appendSibling } from './internal/append-sibling.js';
import { canonicalJson } from './canonical-json.js';
import type { Node } from './node.js';
import type { NodeEdit } from './node-edit.js';
import type { NodeStore } from './node-store.js';
import type { DagOptions } from './options.js';

const KEYS: ReadonlySet<string> = new Set(['name', 'input', 'output', 'reads', 'metadata']);

/**
 * Appends a different-content sibling of a node: same parent and role as the original, content fields from
 * `edit` where given and from the original otherwise. HEAD moves to the new node, except for a tool node.
 * The original is untouched.
 *
 * @param store - The node store.
 * @param session - The session that appends the sibling.
 * @param nodeId - The node to edit.
 * @param edit - The replaced fields; the result must differ from the original (use {@link retryNode} otherwise).
 * @param opts - Clock, id generator and output limit; see {@link DagOptions}.
 * @returns The new sibling.
 * @throws {@link AgentRunningError} while the session's agent run is active; {@link InvalidArgumentError} when
 *   `edit` changes nothing or has unknown fields; the validation errors of {@link appendNode}.
 * @example
 * ```ts
 * const fixed = await editNode(store, 'chat', question.id, { output: 'list hidden files too' });
 * ```
 */
export async function editNode(store: NodeStore, session: string, nodeId: string, edit: NodeEdit, opts?: DagOptions): Promise<Node> {
  if (typeof edit !== 'object' || edit === null || Array.isArray(edit)) throw new InvalidArgumentError({ argument: 'edit', reason: 'expected a NodeEdit object' });
  for (const key of Object.keys(edit)) if (!KEYS.has(key)) throw new InvalidArgumentError({ argument: `edit.${key}`, reason: 'unknown field; an edit may change name, input, output, reads or metadata' });
  return appendSibling(
    store,
    session,
    nodeId,
    'editNode',
    (n) => {
      const before = { name: n.name, input: n.input, output: n.output, reads: n.reads, metadata: n.metadata };
      const after = {
        name: edit.name ?? n.name,
        input: edit.input !== undefined ? edit.input : n.input,
        output: edit.output ?? n.output,
        reads: edit.reads ?? n.reads,
        metadata: edit.metadata ?? n.metadata,
      };
      if (sameContent(before, after)) {
        throw new InvalidArgumentError({ argument: 'edit', reason: `it leaves the content of ${n.id} unchanged; use retryNode for a same-content sibling` });
      }
      return after;
    },
    opts,
  );
}

/** Whether two contents are the same canonical JSON; a value JSON cannot hold makes them differ, and the node check refuses it. */
function sameContent(a: object, b: object): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch (err) {
    if (err instanceof TypeError) return false;
    throw err;
  }
}
