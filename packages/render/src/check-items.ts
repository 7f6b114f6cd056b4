import type { ContextItem } from '@ctxgit/rules';
import { InvalidCommitError } from './errors.js';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const STATES = new Set(['full', 'aged', 'cleared', 'summarized', 'summary']);

/** Checks the shape of the items render relies on (of a `summarized` one, all but its blocks); throws InvalidCommitError. */
export function checkItems(items: unknown): asserts items is readonly ContextItem[] {
  if (!Array.isArray(items)) throw new InvalidCommitError({ index: -1, field: 'items', value: typeof items });
  for (let index = 0; index < items.length; index++) {
    const item: unknown = items[index];
    if (typeof item !== 'object' || item === null) throw new InvalidCommitError({ index, field: 'item', value: String(item) });
    const it = item as Partial<ContextItem>;
    if (typeof it.key !== 'string') throw new InvalidCommitError({ index, field: 'key', value: String(it.key) });
    if (!ROLES.has(it.role as string)) throw new InvalidCommitError({ index, field: 'role', value: String(it.role) });
    if (!STATES.has(it.state as string)) throw new InvalidCommitError({ index, field: 'state', value: String(it.state) });
    // No provider reads the blocks of a summarized item (most of a long session's items are summarized).
    if (it.state !== 'summarized') {
      if (!Array.isArray(it.blocks)) throw new InvalidCommitError({ index, field: 'blocks', value: typeof it.blocks });
      for (const block of it.blocks as readonly unknown[]) {
        const type = (block as { type?: unknown } | null)?.type;
        if (type !== 'text' && type !== 'tool_call' && type !== 'tool_result') {
          throw new InvalidCommitError({ index, field: 'block type', value: String(type) });
        }
      }
    }
    if (typeof it.tokens !== 'number' || !Number.isFinite(it.tokens)) {
      throw new InvalidCommitError({ index, field: 'tokens', value: String(it.tokens) });
    }
  }
}
