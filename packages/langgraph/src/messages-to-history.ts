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
interface ConvertedMessage {
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

/** A call issued and not yet answered: the place and object of the AI message that issued it, and the call. */
interface OpenCall {
  readonly caller: number;
  readonly from: object;
  readonly call: ToolCall;
}

/** A list converted: its messages (a copy), their entries, and the calls still unanswered at its end. */
interface ConvertedList {
  readonly messages: readonly object[];
  readonly entries: readonly HistoryEntry[];
  readonly open: ReadonlyMap<string, OpenCall>;
}

/**
 * The messages of `value` after those of `start` converted on from where it ended; `memo` gives a message met before at
 * the same place (a tool message answering the same AI message object) its earlier entry object, and learns the others.
 * Undefined when a message is of no known type or answers no open call.
 */
function convertList(value: readonly BaseMessage[], start: ConvertedList | undefined, memo: WeakMap<object, ConvertedMessage> | undefined): ConvertedList | undefined {
  const entries = start === undefined ? [] : [...start.entries];
  const open = new Map(start?.open);
  for (let at = entries.length; at < value.length; at++) {
    const message = value[at] as BaseMessage;
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
  return { messages: [...value], entries, open };
}

/**
 * What converts one thread's message lists, put after put, looking only at what is new: the last list converted (a
 * list that begins with all of its messages, as the next turn's does, goes on from its end without looking at them
 * again), and what each message object became at its place (a message met again there gives the same entry object,
 * which `Session.appendNew` does not compare again). A message is taken never to change in place: LangGraph's reducers
 * replace a message by a new object.
 */
export class HistoryMemo {
  readonly #messages = new WeakMap<object, ConvertedMessage>();
  #last: ConvertedList | undefined;

  /** {@link messagesToHistory} of `value`, converting only the messages not met before at their place. */
  convert(value: unknown): readonly HistoryEntry[] | undefined {
    if (!Array.isArray(value)) return undefined;
    const last = this.#last;
    const start = last !== undefined && value.length >= last.messages.length && last.messages.every((m, i) => value[i] === m) ? last : undefined;
    // the messages of `start` were checked when it was converted
    for (let i = start?.messages.length ?? 0; i < value.length; i++) if (!isBaseMessage(value[i])) return undefined;
    const done = convertList(value as BaseMessage[], start, this.#messages);
    if (done !== undefined) this.#last = done;
    return done?.entries;
  }
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
  const done = convertList(value as BaseMessage[], undefined, undefined);
  return done === undefined ? undefined : [...done.entries];
}
