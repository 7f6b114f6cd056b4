import type { TokenizerEncoding } from '@ctxgit/tokenize';
import { resolveModel } from '@ctxgit/tokenize';
import type { ChartsView } from '../api-types.js';
import type { ViewerContext } from './viewer-context.js';

/** Tokens fed and tokens of the full branch for the newest `limit` calls of a session, with their cost. */
export async function chartsView(ctx: ViewerContext, name: string, limit: number): Promise<ChartsView> {
  const session = await ctx.session(name);
  const entries = await session.log({ limit: limit + 1 });
  const calls = entries.slice(0, limit).reverse();
  const tokenizer = await ctx.repo.tokenizers.load(resolveModel(session.model, { window: session.window }).encoding as TokenizerEncoding);
  const price = ctx.prices[session.model] ?? null;
  const cost = (tokens: number): number | null => (price === null ? null : (tokens * price) / 1_000_000);
  const points = [];
  for (const e of calls) {
    const full = await ctx.fullHistory.upTo(e.headNodeId, tokenizer);
    points.push({ id: e.id, turn: e.turn, fed: e.totalTokens, full, costFed: cost(e.totalTokens), costFull: cost(full) });
  }
  return { session: name, model: session.model, usdPerMTok: price, points, truncated: entries.length > limit };
}
