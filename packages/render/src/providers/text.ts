import type { ContextItem } from '@ctxgit/rules';
import { EmptyRenderError } from '../errors.js';
import { itemText } from '../item-text.js';
import type { Provider } from '../provider.js';
import type { ProviderOptions } from '../render-options.js';

/** Separates the blocks of the text view; never occurs inside a block (body lines are indented). */
export const TEXT_BLOCK_SEPARATOR = '\n\n';

function header(item: ContextItem, index: number): string {
  const flags = [
    item.locked ? 'locked' : '',
    item.pinned === true ? 'pinned' : '',
    item.isAnchor === true ? 'anchor' : '',
    item.attachedFrom === undefined ? '' : `attached_from=${item.attachedFrom}`,
    item.mergedInto === undefined ? '' : `merged_into=${item.mergedInto}`,
  ].filter((flag) => flag !== '');
  return [`#${index}`, item.role, item.state, `key=${item.key}`, `tokens=${item.tokens}`, ...flags].join(' ');
}

/**
 * A readable view for people: one block per item (summarized ones included, without content), a header line
 * `#<index> <role> <state> key=<key> tokens=<n> [flags]`, then the content the model sees, every line
 * indented by two spaces so that no content line can look like a header. Blocks are separated by a blank line.
 */
export const text: Provider<'text'> = {
  name: 'text',
  render(items: readonly ContextItem[], _options: ProviderOptions): string {
    if (items.length === 0) throw new EmptyRenderError({ provider: 'text', items: 0, rendered: 0 });
    return items
      .map((item, index) => {
        const body = item.state === 'summarized' ? `(folded into ${item.mergedInto ?? 'a summary'})` : itemText(item);
        const lines = body.split(/\r\n|\r|\n/).map((line) => `  ${line}`);
        return [header(item, index), ...lines].join('\n');
      })
      .join(TEXT_BLOCK_SEPARATOR);
  },
};
