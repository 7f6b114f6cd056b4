import type { Node } from '@ctxgit/dag';
import { distinctiveIdentifiers, identifierShaped } from './identifiers.js';

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
  return distinctiveIdentifiers(writtenBy(step, calls)).filter((id) => fromTools.has(id) && !fromPeople.has(id));
}

/** What an assistant step writes: its text and the arguments of the tool calls it issues. */
const writtenBy = (step: Node, calls: readonly Node[]): string => [step.output, ...calls.map((call) => JSON.stringify(call.input ?? null))].join('\n');

/**
 * Of the identifiers {@link reusedIdentifiers} found for a step, those the step writes shaped like identifiers
 * ({@link identifierShaped}: a digit, `_ . / :`, an inner `-` or capital), not plain words.
 * @example
 * ```ts
 * shapedReuses(['mia_li_3668', 'previously'], assistant, []); // ['mia_li_3668']
 * ```
 */
export function shapedReuses(reused: readonly string[], step: Node, calls: readonly Node[]): string[] {
  const shaped = identifierShaped(writtenBy(step, calls));
  return reused.filter((id) => shaped.has(id));
}
