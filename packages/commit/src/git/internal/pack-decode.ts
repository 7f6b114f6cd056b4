import { inflateSync } from 'node:zlib';
import { CorruptObjectError } from '../errors.js';
import { applyDelta } from './delta-apply.js';
import { indexEntries } from './pack-codec.js';
import type { PackObject, StoredEntry } from './pack-codec.js';
import type { RawObject } from './state.js';

const TYPES = ['', 'commit', 'tree', 'blob', 'tag'] as const;
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
    let i = e.offset;
    let byte = pack[i++] as number;
    const type = (byte >> 4) & 7;
    let size = byte & 0x0f;
    for (let shift = 4; byte & 0x80; shift += 7) {
      byte = pack[i++] as number;
      size += (byte & 0x7f) * 2 ** shift;
    }
    let object: RawObject;
    let stored: StoredEntry;
    const inflate = (from: number): Buffer => {
      try {
        return inflateSync(pack.subarray(from, end));
      } catch (err) {
        throw new CorruptObjectError(at, `zlib: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
    if (type >= 1 && type <= 4) {
      object = { type: TYPES[type] as RawObject['type'], content: inflate(i) };
      stored = { data: pack.subarray(i, end), size };
    } else if (type === 6) {
      byte = pack[i++] as number;
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = pack[i++] as number;
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      const base = decoded.get(e.offset - distance);
      if (base === undefined) throw new CorruptObjectError(at, 'delta base is not an entry before it');
      object = { type: base.type, content: applyDelta(base.content, inflate(i), at) };
      stored = { data: pack.subarray(i, end), size, base: (oids.get(e.offset - distance) as string) };
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
