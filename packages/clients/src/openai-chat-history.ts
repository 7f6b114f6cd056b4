import type { HistoryEntry } from '@ctxgit/commit';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { argumentsOf, textOf } from './text-of.js';

/**
 * OpenAI Chat Completions messages as a ctxgit history: `system`/`developer`, `user` and `assistant` messages become
 * nodes of their role (text parts only); each `tool` message becomes the `tool` node of the call it answers, right
 * after its assistant, with the call's name, parsed arguments and id (`metadata.callId`). Calls not answered yet
 * are left out (the next call's history brings them with their results).
 *
 * @param messages - `body.messages` of a `chat.completions.create()` call
 * @returns the entries for `Session.appendNew`
 * @example
 * ```ts
 * openAIChatHistory([{ role: 'user', content: 'hi' }]); // [{ role: 'user', output: 'hi' }]
 * ```
 */
export function openAIChatHistory(messages: readonly ChatCompletionMessageParam[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  const calls = new Map<string, { caller: number; name: string; args: string }>();
  const results = new Map<string, { output: string }>();
  for (const m of messages) if (m.role === 'tool') results.set(m.tool_call_id, { output: textOf(m.content) });
  for (const m of messages) {
    if (m.role === 'tool') continue;
    const role = m.role === 'developer' ? 'system' : m.role === 'function' ? undefined : m.role;
    if (role === undefined) continue;
    const name = 'name' in m && typeof m.name === 'string' ? { name: m.name } : {};
    entries.push({ role, ...name, output: textOf(m.content) });
    if (m.role !== 'assistant') continue;
    const caller = entries.length - 1;
    for (const call of m.tool_calls ?? []) {
      if (call.type !== 'function') continue;
      calls.set(call.id, { caller, name: call.function.name, args: call.function.arguments });
      const result = results.get(call.id);
      if (result === undefined) continue;
      entries.push({ role: 'tool', name: call.function.name, input: argumentsOf(call.function.arguments), output: result.output, caller, metadata: { callId: call.id } });
    }
  }
  return entries;
}
