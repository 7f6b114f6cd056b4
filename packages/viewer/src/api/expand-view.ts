import { createHash } from 'node:crypto';
import type { ExpandView } from '../api-types.js';
import type { ViewerContext } from './viewer-context.js';

/** The git blob id of a text: what `git hash-object` prints for it. */
const blobId = (text: string): string => {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
};

/** A summary's originals from the DAG, each re-hashed here and compared with the blob id the commit recorded. */
export async function expandView(ctx: ViewerContext, name: string, commit: string, key: string): Promise<ExpandView> {
  const expanded = await (await ctx.session(name)).expand(key, { commit });
  return {
    key: expanded.key,
    commit: expanded.commit,
    originals: expanded.originals.map((o) => {
      const rehash = blobId(o.text);
      return { key: o.key, oid: o.oid, role: o.node.role, name: o.node.name ?? null, text: o.node.output, rehash, verified: rehash === o.oid };
    }),
  };
}
