import type { RenderOutput } from './provider.js';
import { TEXT_BLOCK_SEPARATOR } from './providers/text.js';

/** How much of one render is a prefix of another. */
export interface StablePrefix {
  /** Leading messages (Responses: input items; text view: blocks) identical in both; 0 when what precedes them differs. */
  readonly messages: number;
  /** UTF-8 bytes of the longest common prefix of both canonical serializations. */
  readonly bytes: number;
  /** Messages in `a` and in `b`. */
  readonly totalMessages: readonly [number, number];
  /** UTF-8 bytes of the canonical serializations of `a` and `b`. */
  readonly totalBytes: readonly [number, number];
}

const encoder = new TextEncoder();

/** Drops `cache_control` markers: they choose where a cache entry ends and are not part of the cached content. */
function stripCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripCacheControl);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (key !== 'cache_control') out[key] = stripCacheControl(field);
  return out;
}

/** Entries in cache order: what precedes the messages (model, tools, system), then one entry per message. */
function entries(render: RenderOutput): { head: string[]; messages: string[] } {
  if (typeof render === 'string') return { head: [], messages: render.split(TEXT_BLOCK_SEPARATOR) };
  const json = (value: unknown): string => JSON.stringify(stripCacheControl(value)) ?? 'null';
  const head = [json({ model: render.model, tools: render.tools ?? null })];
  if ('input' in render) return { head, messages: render.input.map(json) };
  if ('max_tokens' in render) {
    head.push(...(render.system ?? []).map((block) => json({ system: block })));
  }
  return { head, messages: render.messages.map(json) };
}

/**
 * Measures the shared prefix of two renders of the same provider, e.g. of a commit and its parent: the
 * number of leading messages that are identical, and the byte length of the common prefix of their canonical
 * serializations (model and tools, then system, then messages, in the order providers cache them;
 * `cache_control` markers ignored). A provider's prefix cache can reuse at most this much of `a` for `b`.
 *
 * @param a - The earlier render.
 * @param b - The later render, of the same provider.
 * @returns Shared messages and bytes, and the totals of both.
 * @example
 * ```ts
 * const before = render(parent, { provider: 'anthropic' });
 * const after = render(child, { provider: 'anthropic' });
 * const { messages, bytes, totalBytes } = stablePrefix(before, after);
 * const reused = `${messages} messages, ${bytes}/${totalBytes[0]} bytes reused`;
 * ```
 */
export function stablePrefix(a: RenderOutput, b: RenderOutput): StablePrefix {
  const ea = entries(a);
  const eb = entries(b);
  const sa = [...ea.head, ...ea.messages].join('\n');
  const sb = [...eb.head, ...eb.messages].join('\n');
  let messages = 0;
  if (ea.head.length === eb.head.length && ea.head.every((entry, index) => entry === eb.head[index])) {
    while (messages < ea.messages.length && messages < eb.messages.length && ea.messages[messages] === eb.messages[messages]) messages += 1;
  }
  const limit = Math.min(sa.length, sb.length);
  let chars = 0;
  while (chars < limit && sa.charCodeAt(chars) === sb.charCodeAt(chars)) chars += 1;
  return {
    messages,
    bytes: encoder.encode(sa.slice(0, chars)).length,
    totalMessages: [ea.messages.length, eb.messages.length],
    totalBytes: [encoder.encode(sa).length, encoder.encode(sb).length],
  };
}
