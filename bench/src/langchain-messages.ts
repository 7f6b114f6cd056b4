import type { TranscriptEntry } from '@ctxgit/dag';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';

/**
 * Transcript entries as a LangGraph messages channel holds them: LangChain messages, each assistant carrying the tool
 * calls its tool entries answer (call ids `call-<entry index>`), each tool entry a `ToolMessage` answering its call.
 *
 * @param entries - a transcript's entries (a tool entry names its assistant by index)
 * @returns one message per entry, in order
 * @example
 * ```ts
 * const list = langchainMessages(chain.entries); // [SystemMessage, HumanMessage, AIMessage, ToolMessage, ...]
 * ```
 */
export function langchainMessages(entries: readonly TranscriptEntry[]): BaseMessage[] {
  const calls = new Map<number, { id: string; name: string; args: Record<string, unknown>; type: 'tool_call' }[]>();
  entries.forEach((e, i) => {
    if (e.role !== 'tool' || e.caller === undefined) return;
    const args = typeof e.input === 'object' && e.input !== null && !Array.isArray(e.input) ? (e.input as Record<string, unknown>) : {};
    calls.set(e.caller, [...(calls.get(e.caller) ?? []), { id: `call-${i}`, name: e.name ?? 'tool', args, type: 'tool_call' }]);
  });
  return entries.map((e, i) => {
    if (e.role === 'system') return new SystemMessage(e.output);
    if (e.role === 'user') return new HumanMessage(e.output);
    if (e.role === 'assistant') return new AIMessage({ content: e.output, tool_calls: calls.get(i) ?? [] });
    return new ToolMessage({ content: e.output, tool_call_id: `call-${i}` });
  });
}
