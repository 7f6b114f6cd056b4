import { NotJsonError } from '../errors.js';
import type { Json } from '../node.js';
import { validateJson } from '../validate-json.js';

/**
 * Tool-call `arguments` JSON text as node input: the parsed value, plus the raw text when re-serializing the
 * value does not give back the same text (so a renderer can replay it byte for byte). Text that does not parse,
 * or parses to what a node cannot store (a `__proto__` key, a lone surrogate, nesting too deep), is kept as the
 * string itself.
 */
export function parseToolArguments(text: string): { readonly input: Json; readonly raw?: string } {
  let input: Json;
  try {
    input = JSON.parse(text) as Json;
  } catch {
    return { input: text, raw: text };
  }
  try {
    validateJson(input);
  } catch (err) {
    if (err instanceof NotJsonError) return { input: text, raw: text };
    throw err;
  }
  return JSON.stringify(input) === text ? { input } : { input, raw: text };
}
