import type { ContextCommit } from '@ctxgit/commit';
import { diffCommits } from '@ctxgit/commit';
import { stablePrefix } from '@ctxgit/render';
import type { DiffView } from '../api-types.js';
import { PROVIDERS, renderFor } from './render-view.js';
import type { ViewerContext } from './viewer-context.js';

/** A commit against its first parent: the items that changed, and how much of the parent's request stays a prefix. */
export async function diffView(ctx: ViewerContext, id: string): Promise<DiffView> {
  const b = await ctx.repo.readCommit(id);
  const parent = b.parentIds[0];
  const a: ContextCommit = parent === undefined ? { ...b, id: '', parentIds: [], items: [], totalTokens: 0 } : await ctx.repo.readCommit(parent);
  const d = parent === undefined ? diffCommits(a, b) : await ctx.repo.diff(parent, id);
  const first = b.summary.firstChangedIndex;
  const prefix = parent === undefined ? [] : PROVIDERS.flatMap((provider) => {
    try {
      const p = stablePrefix(renderFor(a, provider), renderFor(b, provider));
      return [{ provider, messages: p.messages, bytes: p.bytes, totalBytes: p.totalBytes }];
    } catch {
      return []; // a commit that renders to nothing for this provider (no conversational item yet)
    }
  });
  return {
    a: parent ?? null,
    b: b.id,
    tokens: d.tokens,
    changes: d.changes,
    firstChangedIndex: first,
    firstChangedKey: b.items[first]?.key ?? null,
    prefix,
  };
}
