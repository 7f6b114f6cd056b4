import { decodeCommit } from '../../../git/internal/commit-codec.js';
import { readObjectInternal } from '../../../git/internal/object-io.js';
import { decodeTree } from '../../../git/internal/tree-codec.js';
import { listRefs } from '../../../git/list-refs.js';
import { readRef } from '../../../git/read-ref.js';
import { CTXGIT_PREFIX } from '../../../store/refs.js';
import type { Verifier } from './verifier.js';
import { report } from './verifier.js';

interface Pending {
  readonly oid: string;
  readonly type: 'commit' | 'tree' | 'blob' | undefined;
  /** How it was reached, for the report: `<ref>`, then `<commit>^`, `<commit>:`, `<tree>/<name>`. */
  readonly via: string;
}

/**
 * Reads every object reachable from every ctxgit ref through all of their history (every parent of every commit,
 * every tree and blob of each), once each: it must exist, inflate, hash to its id, parse, and be of the type its
 * referrer names. This is what `git fsck` checks for the same objects, so any single damaged, truncated or deleted
 * object anywhere in the history is reported, including those only older DAG commits reach.
 */
export async function checkObjects(v: Verifier): Promise<void> {
  const stack: Pending[] = [];
  let refs: readonly string[] = [];
  try {
    refs = await listRefs(v.git, CTXGIT_PREFIX);
  } catch {
    return; // reported by the ref check
  }
  for (const ref of refs) {
    try {
      const oid = await readRef(v.git, ref);
      if (oid !== null) stack.push({ oid, type: undefined, via: ref });
    } catch {
      // reported by the ref check
    }
  }
  const seen = new Set<string>();
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined || seen.has(next.oid)) continue;
    seen.add(next.oid);
    v.counts.objects++;
    let object;
    try {
      object = await readObjectInternal(v.git, next.oid);
    } catch (err) {
      report(v, 'E_VERIFY_OBJECT_CORRUPT', next.via, `object ${next.oid}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    if (next.type !== undefined && object.type !== next.type) {
      report(v, 'E_VERIFY_OBJECT_CORRUPT', next.via, `object ${next.oid} is a ${object.type}, its referrer names a ${next.type}`);
      continue;
    }
    try {
      if (object.type === 'commit') {
        const c = decodeCommit(next.oid, object.content);
        stack.push({ oid: c.tree, type: 'tree', via: `${next.oid}:` });
        for (const p of c.parents) stack.push({ oid: p, type: 'commit', via: `${next.oid}^` });
      } else if (object.type === 'tree') {
        for (const e of decodeTree(next.oid, object.content)) stack.push({ oid: e.oid, type: e.type, via: `${next.via}${next.via.endsWith(':') ? '' : '/'}${e.path}` });
      }
    } catch (err) {
      report(v, 'E_VERIFY_OBJECT_CORRUPT', next.via, `object ${next.oid}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
