import { hashObject } from '@ctxgit/commit/git';
import type { ExpandView } from '../api-types.js';
import type { ViewerContext } from './viewer-context.js';

/** A summary's originals from the DAG, each re-hashed here and compared with the blob id the commit recorded. */
export async function expandView(ctx: ViewerContext, name: string, commit: string, key: string): Promise<ExpandView> {
  const expanded = await (await ctx.session(name)).expand(key, { commit });
  return {
    key: expanded.key,
    commit: expanded.commit,
    originals: expanded.originals.map((o) => {
      const rehash = hashObject('blob', o.text);
      return { key: o.key, oid: o.oid, role: o.node.role, name: o.node.name ?? null, text: o.node.output, rehash, verified: rehash === o.oid };
    }),
  };
}
