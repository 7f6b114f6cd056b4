import type { ContextItem } from '@ctxgit/rules';
import { escapeMarkers } from './escape-markers.js';
import { attachOpen } from './attach-open.js';
import { itemText } from './item-text.js';
import { ATTACH_CLOSE } from './markers.js';

/** Text of one item (or part of one). `tokens` is the item's token count on its last part, else 0. */
export interface PlanText {
  readonly kind: 'text';
  readonly text: string;
  readonly key: string;
  readonly tokens: number;
}
/** A native tool call; `id` is unique in the request. */
export interface PlanCall {
  readonly kind: 'call';
  readonly id: string;
  readonly name: string;
  /** JSON text of an object (`{}` when the item's was empty). */
  readonly arguments: string;
  readonly input: { readonly [key: string]: unknown };
  readonly key: string;
  readonly tokens: number;
}
/** A native tool result answering the call with the same id. */
export interface PlanResult {
  readonly kind: 'result';
  readonly callId: string;
  readonly output: string;
  readonly isError: boolean;
  readonly key: string;
  readonly tokens: number;
}
export type PlanPart = PlanText | PlanCall | PlanResult;

/** Provider-neutral message: a `tool` message holds only results and always directly follows the assistant message holding their calls, in the same order. */
export interface PlanMessage {
  readonly role: 'user' | 'assistant' | 'tool';
  readonly parts: PlanPart[];
}

/** A commit lowered to provider-neutral messages. */
export interface Plan {
  readonly system: readonly PlanText[];
  readonly messages: readonly PlanMessage[];
  /** Key of the last `summary` item rendered: the end of the folded region. */
  readonly lastSummaryKey: string | undefined;
  /** Tool names used by native calls, in order of first use. */
  readonly toolNames: readonly string[];
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Output text of a tool result that produced nothing (providers reject empty text blocks). */
export const EMPTY_OUTPUT = '(no output)';

const isBlank = (text: string): boolean => text.trim() === '';

interface NativeTool {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
  readonly input: { readonly [key: string]: unknown };
  readonly output: string;
  readonly isError: boolean;
}

/** A full tool item whose call/result pair is intact and whose name and arguments every provider accepts. */
function nativeTool(item: ContextItem): NativeTool | undefined {
  if (item.role !== 'tool' || item.state !== 'full' || item.blocks.length !== 2) return undefined;
  const [call, result] = item.blocks;
  if (call?.type !== 'tool_call' || result?.type !== 'tool_result' || result.callId !== call.id) return undefined;
  if (!TOOL_NAME.test(call.name) || call.id === '') return undefined;
  const args = isBlank(call.arguments) ? '{}' : call.arguments;
  let input: unknown;
  try {
    input = JSON.parse(args);
  } catch {
    return undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  return {
    callId: call.id,
    name: call.name,
    arguments: args,
    input: input as { readonly [key: string]: unknown },
    output: result.output === '' ? EMPTY_OUTPUT : escapeMarkers(result.output),
    isError: result.isError === true,
  };
}

/** Makes `raw` a valid, request-unique tool call id (`[A-Za-z0-9_-]`, ≤ 64 chars); depends only on earlier ids. */
function uniqueId(raw: string, used: Set<string>): string {
  const base = raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'call';
  let id = base;
  for (let n = 2; used.has(id); n += 1) id = `${base.slice(0, 56)}_${n}`;
  used.add(id);
  return id;
}

/**
 * Lowers items to provider-neutral messages: summarized items skipped, system items hoisted (in order),
 * summaries as `[Summary]` assistant text, attach runs as marked text, intact full tool items as native
 * call/result pairs (calls of tool items that directly follow one assistant item join its message), every
 * other tool item as user text. Empty or whitespace-only texts render nothing.
 */
export function plan(items: readonly ContextItem[]): Plan {
  const system: PlanText[] = [];
  const messages: PlanMessage[] = [];
  const used = new Set<string>();
  const toolNames: string[] = [];
  let lastSummaryKey: string | undefined;
  let chainOpen = false;
  const pushText = (role: 'user' | 'assistant', text: string, item: ContextItem): void => {
    messages.push({ role, parts: [{ kind: 'text', text, key: item.key, tokens: item.tokens }] });
  };
  for (let i = 0; i < items.length; ) {
    const item = items[i] as ContextItem;
    if (item.state === 'summarized') {
      chainOpen = false;
      i += 1;
      continue;
    }
    if (item.attachedFrom !== undefined) {
      const from = item.attachedFrom;
      let end = i;
      while (end < items.length && (items[end] as ContextItem).attachedFrom === from) end += 1;
      const run = items
        .slice(i, end)
        .filter((it) => it.state !== 'summarized')
        .map((it) => ({ item: it, role: it.role === 'assistant' ? ('assistant' as const) : ('user' as const), text: itemText(it) }))
        .filter((entry) => !isBlank(entry.text));
      run.forEach((entry, index) => {
        const open = index === 0 ? `${attachOpen(from)}\n` : '';
        const close = index === run.length - 1 ? `\n${ATTACH_CLOSE}` : '';
        pushText(entry.role, `${open}${entry.text}${close}`, entry.item);
      });
      chainOpen = false;
      i = end;
      continue;
    }
    i += 1;
    if (item.state === 'summary') {
      const text = itemText(item);
      pushText('assistant', text, item);
      lastSummaryKey = item.key;
      chainOpen = false;
      continue;
    }
    if (item.role === 'system') {
      const text = itemText(item);
      if (!isBlank(text)) system.push({ kind: 'text', text, key: item.key, tokens: item.tokens });
      continue;
    }
    if (item.role === 'tool') {
      const tool = nativeTool(item);
      if (tool === undefined) {
        const text = itemText(item);
        if (!isBlank(text)) pushText('user', text, item);
        chainOpen = false;
        continue;
      }
      if (!chainOpen) messages.push({ role: 'assistant', parts: [] });
      const last = messages[messages.length - 1] as PlanMessage;
      const assistant = last.role === 'tool' ? (messages[messages.length - 2] as PlanMessage) : last;
      const results = last.role === 'tool' ? last : { role: 'tool' as const, parts: [] };
      if (results !== last) messages.push(results);
      const id = uniqueId(tool.callId, used);
      if (!toolNames.includes(tool.name)) toolNames.push(tool.name);
      assistant.parts.push({ kind: 'call', id, name: tool.name, arguments: tool.arguments, input: tool.input, key: item.key, tokens: 0 });
      results.parts.push({ kind: 'result', callId: id, output: tool.output, isError: tool.isError, key: item.key, tokens: item.tokens });
      chainOpen = true;
      continue;
    }
    const text = itemText(item);
    if (item.role === 'assistant') {
      messages.push({ role: 'assistant', parts: isBlank(text) ? [] : [{ kind: 'text', text, key: item.key, tokens: item.tokens }] });
      chainOpen = true;
    } else {
      if (!isBlank(text)) pushText('user', text, item);
      chainOpen = false;
    }
  }
  return { system, messages: messages.filter((m) => m.parts.length > 0), lastSummaryKey, toolNames };
}
