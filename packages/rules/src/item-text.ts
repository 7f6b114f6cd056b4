import type { Block } from './item.js';

/** The text of blocks as counted and searched: text, `name(arguments)` for calls, outputs for results. */
export function itemText(blocks: readonly Block[]): string {
  let out = '';
  for (const b of blocks) {
    const part = b.type === 'text' ? b.text : b.type === 'tool_call' ? `${b.name}(${b.arguments})` : b.output;
    out = out === '' ? part : `${out}\n${part}`;
  }
  return out;
}
