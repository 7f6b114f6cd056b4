import type { ContextCommit } from '@ctxgit/commit';
import type { CommitView, ItemView } from '../api-types.js';
import { itemText } from './item-text.js';
import type { ViewerContext } from './viewer-context.js';

/** Characters of an item's text the commit view receives. */
const ITEM_CHARS = 4_000;

/** A commit with its live items (what the model sees) and the count of items per state. */
export async function commitView(ctx: ViewerContext, id: string): Promise<CommitView> {
  const c: ContextCommit = await ctx.repo.readCommit(id);
  // The folded items live under their summaries (the commit counts them): summarized ones included.
  const states: Record<string, number> = (c.foldedItems ?? 0) > 0 ? { summarized: c.foldedItems ?? 0 } : {};
  const items: ItemView[] = [];
  c.items.forEach((it, index) => {
    states[it.state] = (states[it.state] ?? 0) + 1;
    if (it.state === 'summarized') return;
    const text = itemText(it);
    items.push({
      index,
      key: it.key,
      sourceNodeId: it.sourceNodeId,
      role: it.role,
      state: it.state,
      locked: it.locked,
      tokens: it.tokens,
      reason: it.reason,
      attachedFrom: it.attachedFrom ?? null,
      pinned: it.pinned === true,
      anchor: it.isAnchor === true,
      caller: it.caller ?? null,
      folded: it.folded?.length ?? 0,
      text: text.slice(0, ITEM_CHARS),
      chars: text.length,
    });
  });
  return {
    id: c.id,
    session: c.session,
    parentIds: c.parentIds,
    headNodeId: c.headNodeId,
    rulesVersion: c.rulesVersion,
    model: c.model,
    window: c.window,
    totalTokens: c.totalTokens,
    createdAt: c.createdAt,
    summary: c.summary,
    states,
    items,
  };
}
