import type { Node } from '@ctxgit/dag';
import { distinctiveIdentifiers } from './identifiers.js';

/**
 * The distinctive identifiers an assistant step reuses from earlier tool results: those the step writes (its
 * text and the arguments of the tool calls it issues) that occur in an earlier tool result and in no earlier
 * system or user text (so that they can only have come from a tool).
 *
 * @param history - every node before the step (the full conversation the client holds)
 * @param step - the assistant node
 * @param calls - the tool nodes the step issued
 * @param cache - identifiers per node, shared across calls of one transcript
 * @returns the reused identifiers, lowercased, in the order the step writes them
 * @example
 * ```ts
 * reusedIdentifiers([user, toolResult], assistant, []); // e.g. ['credit_card_4421486']
 * ```
 */
export function reusedIdentifiers(
  history: readonly Node[],
  step: Node,
  calls: readonly Node[],
  cache: WeakMap<Node, readonly string[]> = new WeakMap(),
): string[] {
  const ids = (node: Node): readonly string[] => {
    let out = cache.get(node);
    if (out === undefined) {
      out = distinctiveIdentifiers(node.output);
      cache.set(node, out);
    }
    return out;
  };
  const fromTools = new Set<string>();
  const fromPeople = new Set<string>();
  for (const node of history) {
    if (node.role === 'tool') for (const id of ids(node)) fromTools.add(id);
    else if (node.role === 'system' || node.role === 'user') for (const id of ids(node)) fromPeople.add(id);
  }
  const written = [step.output, ...calls.map((call) => JSON.stringify(call.input ?? null))].join('\n');
  return distinctiveIdentifiers(written).filter((id) => fromTools.has(id) && !fromPeople.has(id));
}
