import type { Json } from './node.js';
import { bad, TranscriptBuilder } from './internal/transcript-builder.js';
import type { ChatCall } from './internal/chat-types.js';
import { emitCalls } from './internal/emit-calls.js';
import { isRecord } from './internal/is-record.js';
import { kindOf } from './internal/kind-of.js';
import { omitKeys } from './internal/omit-keys.js';
import type { ImportOptions, Transcript } from './transcript.js';
import { validateJson } from './validate-json.js';

/** A valid user/assistant line after pass 1. */
interface Line {
  readonly line: number;
  readonly uuid: string;
  readonly parentUuid: string | null;
  readonly sidechain: boolean;
  readonly role: 'user' | 'assistant';
  /** False for a user line made only of tool results: it becomes no node of its own. */
  readonly node: boolean;
  readonly output: string;
  readonly calls: readonly ChatCall[];
  readonly createdAt?: number;
  readonly source: { [key: string]: Json };
}

/**
 * Imports a Claude Code session log (JSONL, one entry per line).
 *
 * - `user` and `assistant` lines become nodes following the node of their `parentUuid`. A `null` parentUuid on a
 *   main-chain line after the first follows the previous main-chain node in file order (logs whose lines all
 *   carry `null` are linear; counted in `stats.implicitParents`). Sidechain lines (`isSidechain: true`, a
 *   sub-agent's conversation) follow only their own `parentUuid` and never move HEAD; counted in
 *   `stats.sidechain`. HEAD lands on the last main-chain node.
 * - Text blocks are joined with `\n` as `output`; `thinking` blocks are kept in `metadata.source.thinking`.
 * - Each `tool_use` block becomes a `tool` entry under its assistant, `output` the text of the `tool_result`
 *   block with the same id (from a later user line; `is_error` and the line's `toolUseResult` kept in
 *   `metadata.source`), or empty and flagged `resultMissing`. A user line holding only tool results makes no
 *   node of its own; a line whose parent it is follows that line's parent instead.
 * - `summary` lines are skipped (summaries live in commits, not in the DAG), counted as `skipped.summary`;
 *   other line types as `skipped['type:<type>']`; image and other non-text blocks as `skipped['block:<type>']`.
 * - A `user` or `assistant` line with no message object, or a message without `content` (Claude Code writes such
 *   lines), is skipped by its type and counted as `skipped['<type>:no-message']` or `skipped['<type>:no-content']`;
 *   a later line whose `parentUuid` names it follows its parent instead.
 * - Timestamps become `createdAt`. Every other field of a line is kept in `metadata.source`.
 *
 * A line that is not JSON, not an object, lacks `type` or `uuid`, has a `message` whose role or content blocks are
 * ill-formed, repeats a uuid, names an unknown `parentUuid`, or answers an unknown tool call is malformed.
 *
 * @param text - The JSONL text.
 * @param opts - What to do with malformed lines; see {@link ImportOptions}.
 * @returns The transcript.
 * @throws {@link MalformedTranscriptError} naming the 1-based line and what was wrong.
 * @example
 * ```ts
 * const t = importClaudeCode(readFileSync('~/.claude/projects/x/session.jsonl', 'utf8'));
 * await writeTranscript(store, 'claude', t);
 * ```
 */
export function importClaudeCode(text: string, opts?: ImportOptions): Transcript {
  const b = new TranscriptBuilder('claude-code', opts);
  if (typeof text !== 'string') {
    b.attempt({}, () => bad(`expected JSONL text, got ${kindOf(text)}`));
    return b.build(null, {});
  }
  const rows = text.split('\n');
  if (rows.at(-1) === '') rows.pop();
  const lines: Line[] = [];
  const uuids = new Map<string, number>();
  const open = new Map<string, ChatCall>();
  /** Skipped message-less lines: uuid → the parentUuid a line naming it follows instead. */
  const bypassed = new Map<string, string | null>();
  rows.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = i + 1;
    b.attempt({ line }, () => {
      let v: unknown;
      try {
        v = JSON.parse(raw);
      } catch (e) {
        bad(`not JSON (${(e as Error).message})`);
      }
      if (!isRecord(v)) bad(`expected a JSON object, got ${kindOf(v)}`);
      validateJson(v, 'line');
      const type = v['type'];
      if (typeof type !== 'string') bad('no string type field');
      if (type === 'summary') return b.skip('summary');
      if (type !== 'user' && type !== 'assistant') return b.skip(`type:${type}`);
      const message = v['message'];
      if (!isRecord(message)) return bypass(v, `${type}:no-message`);
      if (message['content'] === undefined) return bypass(v, `${type}:no-content`);
      const parentUuid = v['parentUuid'];
      const fields = typeof parentUuid === 'string' && !uuids.has(parentUuid) && bypassed.has(parentUuid) ? { ...v, parentUuid: followBypassed(parentUuid) } : v;
      const parsed = parseLine(fields, message, type, line, uuids, open);
      uuids.set(parsed.line.uuid, line);
      for (const [id, c] of parsed.newCalls) open.set(id, c);
      for (const [id, result] of parsed.results) {
        const call = open.get(id);
        if (call !== undefined) call.result = result;
        open.delete(id);
      }
      for (const s of parsed.skips) b.skip(s);
      lines.push(parsed.line);
    });
  });
  function bypass(v: Record<string, unknown>, reason: string): void {
    const uuid = v['uuid'];
    const parent = v['parentUuid'] ?? null;
    if (typeof uuid === 'string' && uuid !== '' && !uuids.has(uuid) && (parent === null || typeof parent === 'string')) bypassed.set(uuid, parent);
    b.skip(reason);
  }
  function followBypassed(uuid: string): string | null {
    let at: string | null = uuid;
    for (let hops = 0; at !== null && !uuids.has(at) && bypassed.has(at) && hops <= bypassed.size; hops++) at = bypassed.get(at) ?? null;
    return at;
  }
  const resolved = new Map<string, number | undefined>();
  let lastMain: number | undefined;
  for (const l of lines) {
    let parent: number | undefined;
    if (l.parentUuid !== null) parent = resolved.get(l.parentUuid);
    else if (!l.sidechain && lastMain !== undefined) {
      parent = lastMain;
      b.count('implicitParents');
    }
    if (l.sidechain) b.count('sidechain');
    if (!l.node) {
      resolved.set(l.uuid, parent);
      continue;
    }
    const index = b.add({
      role: l.role,
      output: l.output,
      ...(parent === undefined ? {} : { predecessor: parent }),
      ...(l.createdAt === undefined ? {} : { createdAt: l.createdAt }),
      metadata: { source: l.source },
    });
    emitCalls(b, l.calls, index, l.createdAt);
    resolved.set(l.uuid, index);
    if (!l.sidechain) lastMain = index;
  }
  return b.build(lastMain ?? null, {});
}

interface Parsed {
  readonly line: Line;
  readonly newCalls: Array<[string, ChatCall]>;
  readonly results: Array<[string, NonNullable<ChatCall['result']>]>;
  readonly skips: string[];
}

function parseLine(v: Record<string, unknown>, message: Record<string, unknown>, type: 'user' | 'assistant', line: number, uuids: ReadonlyMap<string, number>, open: ReadonlyMap<string, ChatCall>): Parsed {
  const uuid = v['uuid'];
  if (typeof uuid !== 'string' || uuid === '') bad('no string uuid');
  const first = uuids.get(uuid);
  if (first !== undefined) bad(`uuid ${uuid} was already used on line ${first}`);
  const parentUuid = v['parentUuid'] ?? null;
  if (parentUuid !== null && typeof parentUuid !== 'string') bad(`parentUuid is ${kindOf(parentUuid)}; expected a string or null`);
  if (parentUuid !== null && !uuids.has(parentUuid)) bad(`parentUuid ${parentUuid} names no earlier line`);
  const sidechain = v['isSidechain'] ?? false;
  if (typeof sidechain !== 'boolean') bad('isSidechain is not a boolean');
  const ts = v['timestamp'];
  let createdAt: number | undefined;
  if (ts !== undefined) {
    createdAt = typeof ts === 'string' ? Date.parse(ts) : NaN;
    if (!Number.isFinite(createdAt)) bad(`timestamp ${JSON.stringify(ts)} is not an ISO date`);
  }
  if (message['role'] !== type) bad(`message.role is ${JSON.stringify(message['role'])} on a ${type} line`);
  const content = message['content'];
  const blocks: unknown[] = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : bad(`message.content is ${kindOf(content)}; expected a string or an array of blocks`);
  const texts: string[] = [];
  const thinking: string[] = [];
  const skips: string[] = [];
  const newCalls: Array<[string, ChatCall]> = [];
  const results: Array<[string, NonNullable<ChatCall['result']>]> = [];
  const lineSource = omitKeys(v, ['message', 'type']);
  blocks.forEach((block, i) => {
    const at = `message.content[${i}]`;
    if (!isRecord(block)) bad(`${at} is ${kindOf(block)}; expected a content block object`);
    const bt = block['type'];
    if (typeof bt !== 'string') bad(`${at} has no string type`);
    if (bt === 'text') {
      if (typeof block['text'] !== 'string') bad(`${at}.text is not a string`);
      texts.push(block['text']);
    } else if (bt === 'thinking' && type === 'assistant') {
      if (typeof block['thinking'] !== 'string') bad(`${at}.thinking is not a string`);
      thinking.push(block['thinking']);
    } else if (bt === 'tool_use') {
      if (type !== 'assistant') bad(`${at} is a tool_use block on a user line`);
      const id = block['id'];
      const name = block['name'];
      if (typeof id !== 'string' || id === '') bad(`${at}.id is not a string`);
      if (typeof name !== 'string' || name === '') bad(`${at}.name is not a string`);
      if (open.has(id) || newCalls.some(([x]) => x === id)) bad(`tool_use id ${id} is issued again while still unanswered`);
      const extra = omitKeys(block, ['type', 'id', 'name', 'input']);
      newCalls.push([id, { name, input: (block['input'] as Json | undefined) ?? {}, source: { toolUseId: id, ...extra } }]);
    } else if (bt === 'tool_result') {
      if (type !== 'user') bad(`${at} is a tool_result block on an assistant line`);
      const id = block['tool_use_id'];
      if (typeof id !== 'string') bad(`${at}.tool_use_id is not a string`);
      if (!open.has(id) || results.some(([x]) => x === id)) bad(`${at} answers tool_use ${id}, which no earlier line issued or which is already answered`);
      const isError = block['is_error'];
      if (isError !== undefined && typeof isError !== 'boolean') bad(`${at}.is_error is not a boolean`);
      const output = resultText(block['content'], `${at}.content`, skips);
      const source: { [key: string]: Json } = {
        ...omitKeys(block, ['type', 'tool_use_id', 'content']),
        result: { line, ...lineSource },
      };
      results.push([id, { output, source, ...(createdAt === undefined ? {} : { createdAt }) }]);
    } else skips.push(`block:${bt}`);
  });
  const node = type === 'assistant' || results.length === 0 || texts.length > 0;
  const source: { [key: string]: Json } = { line, ...lineSource, message: omitKeys(message, ['role', 'content']), ...(thinking.length > 0 ? { thinking } : {}) };
  return {
    line: { line, uuid, parentUuid, sidechain, role: type, node, output: texts.join('\n'), calls: newCalls.map(([, c]) => c), ...(createdAt === undefined ? {} : { createdAt }), source },
    newCalls,
    results,
    skips,
  };
}

function resultText(content: unknown, at: string, skips: string[]): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return bad(`${at} is ${kindOf(content)}; expected a string or an array of blocks`);
  const texts: string[] = [];
  content.forEach((block: unknown, i) => {
    if (!isRecord(block) || typeof block['type'] !== 'string') bad(`${at}[${i}] is not a content block`);
    if (block['type'] === 'text') {
      if (typeof block['text'] !== 'string') bad(`${at}[${i}].text is not a string`);
      texts.push(block['text']);
    } else skips.push(`block:${block['type']}`);
  });
  return texts.join('\n');
}
