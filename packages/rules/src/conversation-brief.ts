import type { ContextItem } from './item.js';
import { headOf } from './head-of.js';
import { itemText } from './item-text.js';

/** Deterministic brief of a span without tool work: one line per message, newest kept first, printed in order. */
export function conversationBrief(items: readonly ContextItem[], allowance: number): string {
  const header = `[ctxgit brief] ${items.length} earlier ${items.length === 1 ? 'message' : 'messages'}`;
  let used = Buffer.byteLength(header, 'utf8');
  const lines: string[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i] as ContextItem;
    const text = itemText(it.blocks).replace(/\s+/g, ' ').trim();
    const line = `- ${it.role}: ${text.length > 160 ? `${headOf(text, 159)}…` : text}`;
    const cost = Buffer.byteLength(line, 'utf8') + 1;
    if (used + cost > allowance) continue;
    used += cost;
    lines.push(line);
  }
  return [header, ...lines.reverse()].join('\n');
}
