import type { Json } from '../node.js';

/**
 * Tool-call `arguments` JSON text as node input: the parsed value, plus the raw text when re-serializing the
 * value does not give back the same text (so a renderer can replay it byte for byte). Unparseable text is kept
 * as the string itself.
 */
export function parseToolArguments(text: string): { readonly input: Json; readonly raw?: string } {
  let input: Json;
  try {
    input = JSON.parse(text) as Json;
  } catch {
    return { input: text, raw: text };
  }
  return JSON.stringify(input) === text ? { input } : { input, raw: text };
}
