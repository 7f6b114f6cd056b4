import { bad, TranscriptBuilder } from './internal/transcript-builder.js';
import { chatText } from './internal/chat-text.js';
import type { ChatCall, ChatUnit } from './internal/chat-types.js';
import { emitChatUnits } from './internal/chat-units.js';
import { isRecord } from './internal/is-record.js';
import { kindOf } from './internal/kind-of.js';
import { omitKeys } from './internal/omit-keys.js';
import { readToolCalls } from './internal/read-tool-calls.js';
import type { ImportOptions, Transcript } from './transcript.js';
import { validateJson } from './validate-json.js';

/**
 * Imports OpenAI Chat Completions conversations: `system` (and `developer`, kept as `system` with
 * `metadata.source.role`), `user` and `assistant` messages become a chain of entries; each entry of an
 * assistant's `tool_calls` becomes a `tool` entry hung under it (`caller`), right after it, with `input` the
 * parsed `function.arguments` (`metadata.source.rawArguments` keeps the text when re-serializing differs), and
 * `output` the content of the next `tool` message with the matching `tool_call_id` (ids may be reused once
 * answered, as tau-bench does; counted in `stats.reusedCallIds`) (empty, flagged
 * `metadata.source.resultMissing`, when none answers). The other fields of every message are kept in
 * `metadata.source`. No timestamps: `createdAt` comes from the clock at write time.
 *
 * `source` is a parsed conversation (an array of messages, or an object with a `messages` or `traj` array, its
 * other fields going to `Transcript.metadata`), or text: one such JSON document, or JSONL with one conversation
 * per line (the tau-bench format; blank lines hold nothing and are passed over).
 *
 * @param source - Text of a `.json`/`.jsonl` file, or a parsed conversation.
 * @param opts - What to do with malformed input; see {@link ImportOptions}.
 * @returns One transcript per conversation, in source order.
 * @throws {@link MalformedTranscriptError} naming the line (JSONL), the message index and what was wrong.
 * @example
 * ```ts
 * const [t] = importOpenAIChat([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]);
 * await writeTranscript(store, 'chat', t!);
 * ```
 */
export function importOpenAIChat(source: unknown, opts?: ImportOptions): Transcript[] {
  if (typeof source !== 'string') return [conversation(source, undefined, opts)];
  let whole: unknown;
  try {
    whole = JSON.parse(source);
  } catch {
    return jsonl(source, opts);
  }
  return [conversation(whole, undefined, opts)];
}

function jsonl(text: string, opts: ImportOptions | undefined): Transcript[] {
  const out: Transcript[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    const b = new TranscriptBuilder('openai-chat', opts);
    const ok = b.attempt({ line }, () => {
      try {
        value = JSON.parse(raw);
      } catch (e) {
        bad(`not JSON (${(e as Error).message})`);
      }
      return true;
    });
    out.push(ok === undefined ? b.build(null, {}, line) : conversation(value, line, opts));
  });
  return out;
}

function conversation(value: unknown, line: number | undefined, opts: ImportOptions | undefined): Transcript {
  const b = new TranscriptBuilder('openai-chat', opts);
  const loc = line === undefined ? {} : { line };
  const shape = b.attempt(loc, () => {
    if (Array.isArray(value)) return { messages: value as unknown[], meta: {} };
    if (!isRecord(value)) return bad(`conversation is ${kindOf(value)}; expected an array of messages or an object with a messages or traj array`);
    const key = Array.isArray(value['messages']) ? 'messages' : Array.isArray(value['traj']) ? 'traj' : bad('conversation object has no messages or traj array');
    const meta = omitKeys(value, [key]);
    validateJson(meta, 'conversation');
    return { messages: value[key] as unknown[], meta };
  });
  if (shape === undefined) return b.build(null, {}, line);
  const units: ChatUnit[] = [];
  const open = new Map<string, ChatCall>();
  const used = new Set<string>();
  shape.messages.forEach((m, index) => {
    b.attempt({ ...loc, index }, () => {
      if (!isRecord(m)) bad(`message is ${kindOf(m)}; expected an object`);
      validateJson(m, 'message');
      const role = m['role'];
      if (role === 'tool') {
        const id = m['tool_call_id'];
        if (typeof id !== 'string') bad('tool message has no string tool_call_id');
        const call = open.get(id);
        if (call === undefined) bad(`tool message answers tool_call_id ${JSON.stringify(id)}, which no earlier assistant message issued or which is already answered`);
        call.result = { output: chatText(m['content'], false), source: { index, ...omitKeys(m, ['role', 'content', 'tool_call_id']) } };
        open.delete(id);
        return;
      }
      if (role !== 'system' && role !== 'developer' && role !== 'user' && role !== 'assistant') bad(`unknown role ${JSON.stringify(role)}`);
      const name = m['name'];
      if (name !== undefined && typeof name !== 'string') bad('name is not a string');
      const calls = role === 'assistant' ? readToolCalls(m['tool_calls'], {}) : [];
      if (role !== 'assistant' && m['tool_calls'] !== undefined) bad(`a ${role} message cannot carry tool_calls`);
      const output = chatText(m['content'], role === 'assistant');
      const ids = calls.map(([id]) => id);
      const twice = ids.find((id, i) => open.has(id) || ids.indexOf(id) !== i);
      if (twice !== undefined) bad(`tool call id ${JSON.stringify(twice)} is issued again while a call with that id is still unanswered`);
      for (const [id, c] of calls) {
        if (used.has(id)) b.count('reusedCallIds');
        open.set(id, c);
        used.add(id);
      }
      units.push({
        role: role === 'developer' ? 'system' : role,
        ...(name === undefined ? {} : { name }),
        output,
        source: { index, ...(role === 'developer' ? { role } : {}), ...omitKeys(m, ['role', 'content', 'tool_calls', 'name']) },
        calls: calls.map(([, c]) => c),
      });
    });
  });
  return b.build(emitChatUnits(b, units), shape.meta, line);
}
