import { CorruptObjectError } from '../errors.js';
import { applyDelta } from './delta-apply.js';
import { indexEntries } from './pack-codec.js';
import { ENTRY_TYPES, entryHeader, inflateEntry, ofsDistance } from './pack-entry.js';
import type { PackObject, StoredEntry } from './pack-codec.js';
import type { RawObject } from './state.js';

const TRAILER = 20;

/**
 * Every object of a pack, decoded in one pass over its bytes (what a repack reads): the entries in file order, each
 * inflated once, an `OFS_DELTA` applied to its base decoded before it; a `REF_DELTA` base is looked up among the
 * pack's objects, else read with `readBase`. In the index's name order; with `keep`, each with its entry as stored
 * (for `encodePack` to copy).
 *
 * @param pack - the pack file's bytes
 * @param idx - its version-2 index
 * @param where - the pack's name, for errors
 * @param readBase - reads an object the pack does not hold
 * @param keep - attach each object's stored entry
 */
export async function decodePack(pack: Buffer, idx: Buffer, where: string, readBase: (oid: string) => Promise<RawObject>, keep: boolean): Promise<PackObject[]> {
  const entries = indexEntries(idx);
  const byOffset = [...entries].sort((a, b) => a.offset - b.offset);
  const decoded = new Map<number, RawObject>();
  const oids = new Map<number, string>();
  const byOid = new Map<string, RawObject & { readonly stored?: StoredEntry }>();
  for (const [k, e] of byOffset.entries()) {
    const end = (byOffset[k + 1]?.offset ?? pack.length - TRAILER) as number;
    const at = `${where}.pack@${e.offset}`;
    const { type, size, next: i } = entryHeader(pack, e.offset);
    let object: RawObject;
    let stored: StoredEntry;
    const inflate = (from: number): Buffer => inflateEntry(pack, from, end, size, at);
    if (type >= 1 && type <= 4) {
      object = { type: ENTRY_TYPES[type] as RawObject['type'], content: inflate(i) };
      stored = { data: pack.subarray(i, end), size };
    } else if (type === 6) {
      const { distance, next } = ofsDistance(pack, i);
      const base = decoded.get(e.offset - distance);
      if (base === undefined) throw new CorruptObjectError(at, 'delta base is not an entry before it');
      object = { type: base.type, content: applyDelta(base.content, inflate(next), at) };
      stored = { data: pack.subarray(next, end), size, base: (oids.get(e.offset - distance) as string) };
    } else if (type === 7) {
      const oid = pack.toString('hex', i, i + 20);
      const base = byOid.get(oid) ?? (await readBase(oid));
      object = { type: base.type, content: applyDelta(base.content, inflate(i + 20), at) };
      stored = { data: pack.subarray(i + 20, end), size, base: oid };
    } else throw new CorruptObjectError(at, `unknown entry type ${type}`);
    decoded.set(e.offset, object);
    oids.set(e.offset, e.oid);
    byOid.set(e.oid, keep ? { ...object, stored } : object);
  }
  return entries.map((e) => ({ oid: e.oid, ...(byOid.get(e.oid) as RawObject) }));
}
