import type { TimelinePage } from '../api-types.js';
import type { ViewerContext } from './viewer-context.js';

/** One page of the context timeline, newest first, starting at `start` (default: the latest commit). */
export async function timelinePage(ctx: ViewerContext, name: string, start: string | undefined, limit: number): Promise<TimelinePage> {
  const session = await ctx.session(name);
  const entries = await session.log({ limit: limit + 1, ...(start === undefined ? {} : { start }) });
  const page = entries.slice(0, limit);
  return {
    rows: page.map((e) => ({
      id: e.id,
      parentIds: e.parentIds,
      session: e.session,
      turn: e.turn,
      headNodeId: e.headNodeId,
      subject: e.message.split('\n')[0] ?? '',
      added: e.summary.added,
      aged: e.summary.aged,
      cleared: e.summary.cleared,
      folded: e.summary.folded,
      prefixItems: e.summary.firstChangedIndex,
      totalTokens: e.totalTokens,
      window: e.window,
      createdAt: e.createdAt,
    })),
    next: entries[limit]?.id ?? null,
  };
}
