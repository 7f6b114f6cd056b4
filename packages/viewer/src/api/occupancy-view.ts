import type { OccupancyView } from '../api-types.js';
import type { ViewerContext } from './viewer-context.js';

/** The record `session.occupancy()` returns, and our count of the latest commit split four ways. */
export async function occupancyView(ctx: ViewerContext, name: string): Promise<OccupancyView> {
  const session = await ctx.session(name);
  const record = await session.occupancy();
  const [latest] = await session.log({ limit: 1 });
  let system = 0;
  let history = 0;
  let tools = 0;
  if (latest !== undefined) {
    for (const item of (await ctx.repo.readCommit(latest.id)).items) {
      if (item.state === 'summarized') continue;
      if (item.role === 'system') system += item.tokens;
      else if (item.role === 'tool') tools += item.tokens;
      else history += item.tokens;
    }
  }
  return {
    session: name,
    commit: latest?.id ?? null,
    record: { ...record },
    breakdown: { system, history, tools, outputReserve: session.window - session.historyBudget },
  };
}
