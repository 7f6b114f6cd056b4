import type { ContextItem } from '@ctxgit/rules';

/** The item's content as plain text, unescaped: text blocks, then tool calls and results as labelled lines. */
export function rawItemText(item: ContextItem): string {
  const lines: string[] = [];
  for (const block of item.blocks) {
    if (block.type === 'text') lines.push(block.text);
    else if (block.type === 'tool_call') lines.push(`[tool_call ${block.name} id=${block.id}] ${block.arguments}`);
    else lines.push(`[tool_result ${block.name}${block.isError === true ? ' error' : ''}] ${block.output}`);
  }
  return lines.join('\n');
}
