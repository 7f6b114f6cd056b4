import type { Json } from '@ctxgit/dag';

/** The text of a message content: a string, or the `text` of its text parts (other parts are not kept). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part: unknown) => (typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text' ? [String((part as { text?: unknown }).text ?? '')] : [])).join('');
}

/** Tool call arguments as stored in a node: the parsed JSON text, or the text itself when it is not JSON. */
export function argumentsOf(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}
