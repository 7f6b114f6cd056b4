import type { HistoryEntry } from '@ctxgit/commit';
import type { Json } from '@ctxgit/dag';
import type { BaseMessage } from '@langchain/core/messages';
import { isBaseMessage } from '@langchain/core/messages';

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((block: unknown) => (typeof block === 'string' ? [block] : typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text' ? [String((block as { text?: unknown }).text ?? '')] : []))
    .join('');
}

function json(value: unknown): Json {
  return JSON.parse(JSON.stringify(value ?? {})) as Json;
}

/**
 * LangChain messages (a LangGraph `messages` channel) as a ctxgit history: system, human and AI messages become
 * nodes of their role (text content; an AI message's tool calls are kept in `metadata.toolCalls`), and each tool
 * message becomes the `tool` node of the call it answers (name and arguments from the AI message, `callId` and
 * `isError` in its metadata). Message ids are kept in `metadata.id`. Returns undefined when the value is not a list
 * of messages (the channel is then stored as a plain value only).
 *
 * @param value - the channel value
 * @returns the entries for `Session.appendNew`, or undefined
 * @example
 * ```ts
 * messagesToHistory([new HumanMessage('hi'), new AIMessage('hello')]);
 * // [{ role: 'user', output: 'hi' }, { role: 'assistant', output: 'hello' }]
 * ```
 */
export function messagesToHistory(value: unknown): HistoryEntry[] | undefined {
  if (!Array.isArray(value) || !value.every((m) => isBaseMessage(m))) return undefined;
  const entries: HistoryEntry[] = [];
  const calls = new Map<string, { caller: number; name: string; args: Json }>();
  for (const message of value as BaseMessage[]) {
    const type = message.getType();
    const meta = typeof message.id === 'string' ? { id: message.id } : {};
    if (type === 'tool') {
      const id = String((message as { tool_call_id?: unknown }).tool_call_id ?? '');
      const call = calls.get(id);
      if (call === undefined) return undefined;
      calls.delete(id);
      const isError = (message as { status?: unknown }).status === 'error';
      entries.push({ role: 'tool', name: call.name, input: call.args, output: text(message.content), caller: call.caller, metadata: { ...meta, callId: id, isError } });
      continue;
    }
    const role = type === 'human' ? 'user' : type === 'ai' ? 'assistant' : type === 'system' || type === 'developer' ? 'system' : undefined;
    if (role === undefined) return undefined;
    const toolCalls = type === 'ai' ? ((message as { tool_calls?: { id?: string; name: string; args: unknown }[] }).tool_calls ?? []) : [];
    toolCalls.forEach((c, i) => calls.set(c.id ?? `${entries.length}-${i}`, { caller: entries.length, name: c.name, args: json(c.args) }));
    const named = typeof message.name === 'string' && message.name !== '' ? { name: message.name } : {};
    const withCalls = toolCalls.length > 0 ? { toolCalls: toolCalls.map((c) => ({ id: c.id ?? null, name: c.name })) } : {};
    entries.push({ role, ...named, output: text(message.content), ...(Object.keys(meta).length + Object.keys(withCalls).length > 0 ? { metadata: { ...meta, ...withCalls } } : {}) });
  }
  return entries;
}
