import type { ContextItem } from '@ctxgit/rules';

/** A value with the keys of every object sorted (UTF-16 order) and `undefined` members dropped, for `JSON.stringify`. */
function sortedKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: unknown) => (v === undefined ? null : sortedKeys(v)));
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(record).filter((x) => record[x] !== undefined).sort()) out[k] = sortedKeys(record[k]);
  return out;
}

/**
 * The text of an item blob: canonical JSON pretty-printed (object keys sorted, two-space indent, one field per
 * line) with a final newline, so `git show` and `git diff` of a context commit read field by field. `origin` is the
 * blob oid of the item's DAG node, when it comes from one.
 */
export function itemBlobText(item: ContextItem, origin: string | undefined): string {
  return `${JSON.stringify(sortedKeys(origin === undefined ? item : { ...item, origin }), null, 2)}\n`;
}

/** The same text for any parsed item record (verify re-serializes what it read). */
export function recordBlobText(record: unknown): string {
  return `${JSON.stringify(sortedKeys(record), null, 2)}\n`;
}
