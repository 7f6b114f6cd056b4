import type { ContextItem } from '@ctxgit/rules';

/** The text of an item as the model sees it: text blocks, tool calls as `name(arguments)`, tool results. */
export function itemText(item: ContextItem): string {
  return item.blocks
    .map((b) => {
      if (b.type === 'text') return b.text;
      if (b.type === 'tool_call') return `${b.name}(${b.arguments})`;
      return `${b.isError === true ? '[error] ' : ''}${b.output}`;
    })
    .join('\n');
}
