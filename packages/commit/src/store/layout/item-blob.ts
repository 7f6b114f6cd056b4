import type { ContextItem } from '@ctxgit/rules';
import { canonicalJson } from '@ctxgit/dag';

/**
 * The text of an item blob: canonical JSON pretty-printed (object keys sorted, two-space indent, one field per
 * line) with a final newline, so `git show` and `git diff` of a context commit read field by field. `origin` is the
 * blob oid of the item's DAG node, when it comes from one.
 */
export function itemBlobText(item: ContextItem, origin: string | undefined): string {
  return `${canonicalJson(origin === undefined ? item : { ...item, origin }, { pretty: true })}\n`;
}

/** The same text for any parsed item record (verify re-serializes what it read). */
export function recordBlobText(record: unknown): string {
  return `${canonicalJson(record, { pretty: true })}\n`;
}
