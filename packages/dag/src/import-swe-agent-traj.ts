import type { Json } from './node.js';
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
 * Imports a SWE-agent `.traj` file from its `history` (what the model saw), in both styles:
 *
 * - function calling: each of an assistant's `tool_calls` becomes a `tool` entry under it (`caller`), `input`
 *   the parsed arguments, `output` the `tool` message whose `tool_call_ids` names it;
 * - plain-text actions: an assistant with a non-empty `action` and no `tool_calls` issued one command; it
 *   becomes a `tool` entry under the assistant with `name` the command's first word, `input`
 *   `{ command: action }` and `output` the observation, i.e. the next `user` or `tool` message, which is not
 *   kept as a separate user node (`metadata.source.role` records its role).
 *
 * A call with no observation (typically the final `submit`) gets an empty output flagged
 * `metadata.source.resultMissing` (counted in `stats.unansweredCalls`). Messages with `is_demo: true` (the
 * demonstrations SWE-agent puts in every request) are kept like any other message, with `is_demo` in
 * `metadata.source`, so a replay sends what the agent sent (a demonstration's action is answered only by a
 * demonstration message); the parallel `trajectory` array repeats the history and is counted as
 * `skipped.trajectory` (its step count); other top-level fields go to `Transcript.metadata`. Every other field
 * of a message (`agent`, `message_type`, `thought`, `action`, ...) is kept in `metadata.source`.
 *
 * @param source - Text of a `.traj` file, or its parsed object.
 * @param opts - What to do with malformed messages; see {@link ImportOptions}.
 * @returns The transcript.
 * @throws {@link MalformedTranscriptError} naming the message index and what was wrong.
 * @example
 * ```ts
 * const t = importSweAgentTraj(readFileSync('run.traj', 'utf8'));
 * await writeTranscript(store, 'swe-run', t);
 * ```
 */
export function importSweAgentTraj(source: unknown, opts?: ImportOptions): Transcript {
  const b = new TranscriptBuilder('swe-agent', opts);
  const top = b.attempt({}, () => {
    let value = source;
    if (typeof source === 'string') {
      try {
        value = JSON.parse(source);
      } catch (e) {
        bad(`not JSON (${(e as Error).message})`);
      }
    }
    if (!isRecord(value)) return bad(`trajectory is ${kindOf(value)}; expected an object with a history array`);
    if (!Array.isArray(value['history'])) return bad('no history array');
    const trajectory = value['trajectory'];
    if (trajectory !== undefined && !Array.isArray(trajectory)) bad('trajectory is not an array');
    const meta = omitKeys(value, ['history', 'trajectory']);
    validateJson(meta, 'trajectory');
    return { history: value['history'] as unknown[], steps: trajectory?.length ?? 0, meta };
  });
  if (top === undefined) return b.build(null, {});
  if (top.steps > 0) b.skip('trajectory', top.steps);
  const units: ChatUnit[] = [];
  const open = new Map<string, ChatCall>();
  let pendingAction: ChatCall | undefined;
  let pendingDemo = false;
  top.history.forEach((m, index) => {
    b.attempt({ index }, () => {
      if (!isRecord(m)) bad(`message is ${kindOf(m)}; expected an object`);
      validateJson(m, 'message');
      const role = m['role'];
      if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') bad(`unknown role ${JSON.stringify(role)}`);
      const output = chatText(m['content'], role === 'assistant');
      const source: { [key: string]: Json } = { index, ...omitKeys(m, ['role', 'content', 'tool_calls', 'tool_call_ids', 'tool_call_id']) };
      const ids = callIds(m);
      if (role === 'tool' && ids.length > 0) {
        if (ids.length > 1) bad(`tool message answers ${ids.length} calls (${ids.join(', ')}); expected one`);
        const id = ids[0] ?? '';
        const call = open.get(id);
        if (call === undefined) bad(`tool message answers tool call ${JSON.stringify(id)}, which no earlier assistant message issued or which is already answered`);
        call.result = { output, source: { ...source, role } };
        open.delete(id);
        return;
      }
      // A demonstration's action is answered only by a demonstration: the first real message starts the task.
      if (pendingAction !== undefined && pendingDemo && m['is_demo'] !== true) pendingAction = undefined;
      if ((role === 'user' || role === 'tool') && pendingAction !== undefined) {
        pendingAction.result = { output, source: { ...source, role } };
        pendingAction = undefined;
        b.count('observations');
        return;
      }
      if (role === 'tool') bad('tool message answers no call: it has no tool_call_ids and follows no assistant action');
      pendingAction = undefined;
      const calls: ChatCall[] = [];
      if (role === 'assistant') {
        const fc = readToolCalls(m['tool_calls'], { style: 'function' });
        const ids = fc.map(([id]) => id);
        const twice = ids.find((id, i) => open.has(id) || ids.indexOf(id) !== i);
        if (twice !== undefined) bad(`tool call id ${JSON.stringify(twice)} is issued again while a call with that id is still unanswered`);
        for (const [id, c] of fc) {
          open.set(id, c);
          calls.push(c);
        }
        const action = m['action'];
        if (fc.length === 0 && typeof action === 'string' && action.trim() !== '') {
          pendingAction = { name: action.trim().split(/\s+/)[0] ?? action, input: { command: action }, source: { style: 'action' } };
          pendingDemo = m['is_demo'] === true;
          calls.push(pendingAction);
        }
      }
      units.push({ role, output, source, calls });
    });
  });
  return b.build(emitChatUnits(b, units), top.meta);
}

function callIds(m: Record<string, unknown>): string[] {
  const many = m['tool_call_ids'];
  const one = m['tool_call_id'];
  if (many !== undefined && many !== null) {
    if (!Array.isArray(many) || !many.every((x): x is string => typeof x === 'string')) bad('tool_call_ids is not an array of strings');
    return many;
  }
  if (one !== undefined && one !== null) return typeof one === 'string' ? [one] : bad('tool_call_id is not a string');
  return [];
}
