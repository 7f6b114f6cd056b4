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

/** A tool call of an AI message: its id (or a stand-in from the message's place), name and arguments. */
interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: Json;
}

/** What a message became at its place in a list: its entry; for an AI message its calls, for a tool message the AI message it answered. */
export interface ConvertedMessage {
  readonly at: number;
  readonly entry: HistoryEntry;
  readonly calls: readonly ToolCall[];
  readonly answers?: object;
}

/** The entry of a non-tool message at `at`, and its tool calls; undefined for a message of another type. */
function converted(message: BaseMessage, at: number): ConvertedMessage | undefined {
  const type = message.getType();
  const role = type === 'human' ? 'user' : type === 'ai' ? 'assistant' : type === 'system' || type === 'developer' ? 'system' : undefined;
  if (role === undefined) return undefined;
  const meta = typeof message.id === 'string' ? { id: message.id } : {};
  const toolCalls = type === 'ai' ? ((message as { tool_calls?: { id?: string; name: string; args: unknown }[] }).tool_calls ?? []) : [];
  const calls = toolCalls.map((c, i) => ({ id: c.id ?? `${at}-${i}`, name: c.name, args: json(c.args) }));
  const named = typeof message.name === 'string' && message.name !== '' ? { name: message.name } : {};
  const withCalls = toolCalls.length > 0 ? { toolCalls: toolCalls.map((c) => ({ id: c.id ?? null, name: c.name })) } : {};
  const entry: HistoryEntry = { role, ...named, output: text(message.content), ...(Object.keys(meta).length + Object.keys(withCalls).length > 0 ? { metadata: { ...meta, ...withCalls } } : {}) };
  return { at, entry, calls };
}

/**
 * {@link messagesToHistory}, with `memo` holding what each message object became at its place: a message met again at
 * the same place (a tool message answering the same AI message object) gives the same entry object, not converted
 * again; the others are converted and remembered. The memo assumes a message is never changed in place.
 */
export function historyOf(value: unknown, memo?: WeakMap<object, ConvertedMessage>): HistoryEntry[] | undefined {
  if (!Array.isArray(value) || !value.every((m) => isBaseMessage(m))) return undefined;
  const entries: HistoryEntry[] = [];
  // the calls issued and not yet answered, by id: the caller's place and object, the tool's name and arguments
  const open = new Map<string, { caller: number; from: object; call: ToolCall }>();
  for (const message of value as BaseMessage[]) {
    const at = entries.length;
    const before = memo?.get(message);
    let done: ConvertedMessage | undefined;
    if (message.getType() === 'tool') {
      const id = String((message as { tool_call_id?: unknown }).tool_call_id ?? '');
      const issued = open.get(id);
      if (issued === undefined) return undefined;
      open.delete(id);
      if (before !== undefined && before.at === at && before.answers === issued.from && before.entry.caller === issued.caller) done = before;
      else {
        const meta = typeof message.id === 'string' ? { id: message.id } : {};
        const isError = (message as { status?: unknown }).status === 'error';
        const entry: HistoryEntry = { role: 'tool', name: issued.call.name, input: issued.call.args, output: text(message.content), caller: issued.caller, metadata: { ...meta, callId: id, isError } };
        done = { at, entry, calls: [], answers: issued.from };
      }
    } else {
      done = before !== undefined && before.at === at ? before : converted(message, at);
      if (done === undefined) return undefined;
      for (const call of done.calls) open.set(call.id, { caller: at, from: message, call });
    }
    if (done !== before) memo?.set(message, done);
    entries.push(done.entry);
  }
  return entries;
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
  return historyOf(value);
}
