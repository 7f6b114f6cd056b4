import { createHash } from 'node:crypto';
import { compareNames, indexCount, indexOffsetAt, INDEX_NAMES as NAMES } from './pack-codec.js';

/** The objects of a join of pack indexes in name order: for each, the part that lists it and its position there. */
export interface JoinOrder {
  readonly part: Uint16Array;
  readonly at: Uint32Array;
}

/**
 * The names of `idxs` merged in order (a k-way merge of their sorted name tables, two typed arrays: no string or object
 * per entry); null when two indexes list the same object.
 */
export function mergeIndexNames(idxs: readonly Buffer[]): JoinOrder | null {
  const counts = idxs.map(indexCount);
  const n = counts.reduce((s, c) => s + c, 0);
  const part = new Uint16Array(n);
  const at = new Uint32Array(n);
  const next = counts.map(() => 0);
  for (let o = 0; o < n; o++) {
    let best = -1;
    for (let k = 0; k < idxs.length; k++) {
      if ((next[k] as number) >= (counts[k] as number)) continue;
      if (best >= 0) {
        // two heads that are equal meet here once their name is the smallest left
        const c = compareNames(idxs[k] as Buffer, NAMES + (next[k] as number) * 20, idxs[best] as Buffer, NAMES + (next[best] as number) * 20);
        if (c === 0) return null;
        if (c > 0) continue;
      }
      best = k;
    }
    part[o] = best;
    at[o] = next[best] as number;
    next[best] = (next[best] as number) + 1;
  }
  return { part, at };
}

/**
 * The version-2 index of the pack that joins the packs of `idxs` in their order, each part's entries moved by
 * `shifts[part]` bytes: names and CRCs copied from the parts' indexes, offsets shifted, in `order`
 * ({@link mergeIndexNames}). The same bytes as `encodeIndex` of the parts' shifted entries.
 */
export function joinIndexes(idxs: readonly Buffer[], order: JoinOrder, shifts: readonly number[], packSum: Buffer): Buffer {
  const counts = idxs.map(indexCount);
  const n = order.part.length;
  const offsets = new Float64Array(n);
  let large = 0;
  for (let o = 0; o < n; o++) {
    const k = order.part[o] as number;
    const off = indexOffsetAt(idxs[k] as Buffer, counts[k] as number, order.at[o] as number) + (shifts[k] as number);
    offsets[o] = off;
    if (off >= 0x80000000) large++;
  }
  const buf = Buffer.alloc(NAMES + n * 28 + large * 8 + 40);
  buf.writeUInt32BE(0xff744f63, 0);
  buf.writeUInt32BE(2, 4);
  const crcs = NAMES + n * 20;
  for (let o = 0; o < n; o++) {
    const k = order.part[o] as number;
    const i = order.at[o] as number;
    const idx = idxs[k] as Buffer;
    idx.copy(buf, NAMES + o * 20, NAMES + i * 20, NAMES + i * 20 + 20);
    const crc = NAMES + (counts[k] as number) * 20 + i * 4;
    idx.copy(buf, crcs + o * 4, crc, crc + 4);
  }
  // fan-out: how many names start with a byte up to each value
  for (let o = 0, byte = 0; byte < 256; byte++) {
    while (o < n && (buf[NAMES + o * 20] as number) <= byte) o++;
    buf.writeUInt32BE(o, 8 + byte * 4);
  }
  const offs = crcs + n * 4;
  let p = offs + n * 4;
  for (let o = 0, l = 0; o < n; o++) {
    const off = offsets[o] as number;
    if (off < 0x80000000) buf.writeUInt32BE(off, offs + o * 4);
    else {
      buf.writeUInt32BE((0x80000000 | l++) >>> 0, offs + o * 4);
      buf.writeBigUInt64BE(BigInt(off), p);
      p += 8;
    }
  }
  packSum.copy(buf, p);
  p += 20;
  createHash('sha1').update(buf.subarray(0, p)).digest().copy(buf, p);
  return buf;
}
