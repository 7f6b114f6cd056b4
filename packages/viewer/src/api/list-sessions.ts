import type { SessionList, SessionRow } from '../api-types.js';
import type { ViewerContext } from './viewer-context.js';

/** Every session whose name contains `query` (case-insensitive), with its figures, sorted by name. */
export async function listSessions(ctx: ViewerContext, query: string): Promise<SessionList> {
  const names = await ctx.repo.listSessions();
  const needle = query.toLowerCase();
  const rows: SessionRow[] = [];
  for (const name of names) {
    if (needle !== '' && !name.toLowerCase().includes(needle)) continue;
    const record = await ctx.repo.store.getSession(name);
    if (record === undefined) continue;
    const session = await ctx.session(name);
    const [latest] = await session.log({ limit: 1 });
    const head = record.head === null ? undefined : await ctx.repo.store.getNode(record.head);
    const times = [latest?.createdAt, head?.createdAt].filter((t): t is number => t !== undefined);
    rows.push({
      name,
      model: session.model,
      nodes: record.nextSeq,
      commits: latest?.turn ?? 0,
      tokens: latest?.totalTokens ?? 0,
      window: session.window,
      lastActivity: times.length === 0 ? null : Math.max(...times),
      forkedFrom: record.forkedFrom ?? null,
    });
  }
  return { sessions: rows, total: names.length };
}
