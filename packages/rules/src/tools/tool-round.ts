import type { PipelineInput } from '../pipeline.js';
import type { ToolRound } from './tool-view.js';

/**
 * The round a commit's new nodes make, as the tool view reads it: the text of the newest user node and every tool
 * node's name and arguments, in order. Items expanded from an attach are not calls of this conversation and are
 * skipped.
 *
 * @param inputs - the new nodes of a commit, in order
 * @returns the round
 * @example
 * ```ts
 * toolRoundOf([userNode, assistantNode, toolNode]); // { userText: '…', calls: [{ name: 'open_tools', input: { open: 'files' } }] }
 * ```
 */
export function toolRoundOf(inputs: readonly PipelineInput[]): ToolRound {
  let userText: string | undefined;
  const calls: { name: string; input?: unknown }[] = [];
  for (const n of inputs) {
    if ('blocks' in n) continue;
    if (n.role === 'user') userText = n.output;
    else if (n.role === 'tool' && n.name !== undefined) calls.push(n.input === undefined ? { name: n.name } : { name: n.name, input: n.input });
  }
  return userText === undefined ? { calls } : { userText, calls };
}
