import { createHash } from 'node:crypto';

/** Two levels of two hex digits of sha1(key): spreads any id over 65,536 leaf trees. */
export function shard(key: string): [string, string] {
  const h = createHash('sha1').update(key, 'utf8').digest('hex');
  return [h.slice(0, 2), h.slice(2, 4)];
}

const SEQ_DIGITS = 16;

/** `session.json`: the session record, at the root of the session's DAG tree. */
export const RECORD_PATH: readonly string[] = ['session.json'];

/** `roots/`: one entry per root node the session appended. */
export const ROOTS_DIR: readonly string[] = ['roots'];

/** `nodes/<h0h1>/<h2h3>/<id>.json` */
export function nodePath(id: string): string[] {
  return ['nodes', ...shard(id), `${id}.json`];
}

/** `children/<h0h1>/<h2h3>/<parent>/`: one entry per node whose predecessor is `parent`. */
export function childrenDir(parent: string): string[] {
  return ['children', ...shard(parent), parent];
}

/** `callees/<h0h1>/<h2h3>/<caller>/`: one entry per tool node whose caller is `caller`. */
export function calleesDir(caller: string): string[] {
  return ['callees', ...shard(caller), caller];
}

/** `commits/<h0h1>/<h2h3>/<nodeId>`: the commit index, a blob holding the oid of the latest ContextCommit at that head. */
export function commitIndexPath(nodeId: string): string[] {
  return ['commits', ...shard(nodeId), nodeId];
}

/** The entry name under an index directory: zero-padded seq, `.`, id — git's byte order is `(seq, id)` order. */
export function indexEntryName(seq: number, id: string): string {
  return `${String(seq).padStart(SEQ_DIGITS, '0')}.${id}`;
}

export function idOfIndexEntry(name: string): string {
  return name.slice(SEQ_DIGITS + 1);
}
