import { inflateSync } from 'node:zlib';
import { CorruptObjectError } from '../errors.js';
import { storedData } from './zlib-stored.js';

/** Object types by a pack entry's type code (1–4; 6 is OFS_DELTA, 7 REF_DELTA). */
export const ENTRY_TYPES = ['', 'commit', 'tree', 'blob', 'tag'] as const;

/** A pack entry's header at `at`: its type code, its size (the object's, or the delta's) and where what follows starts. */
export function entryHeader(pack: Uint8Array, at: number): { type: number; size: number; next: number } {
  let i = at;
  let byte = pack[i++] as number;
  const type = (byte >> 4) & 7;
  let size = byte & 0x0f;
  for (let shift = 4; byte & 0x80; shift += 7) {
    byte = pack[i++] as number;
    size += (byte & 0x7f) * 2 ** shift;
  }
  return { type, size, next: i };
}

/** An OFS_DELTA entry's base distance, encoded at `at` (big-endian 7-bit groups, each continuation adding one), and where its data starts. */
export function ofsDistance(pack: Uint8Array, at: number): { distance: number; next: number } {
  let i = at;
  let byte = pack[i++] as number;
  let distance = byte & 0x7f;
  while (byte & 0x80) {
    byte = pack[i++] as number;
    distance = (distance + 1) * 128 + (byte & 0x7f);
  }
  return { distance, next: i };
}

/** Output chunks are at most this large, whatever size a (possibly damaged) header gives. */
const MAX_CHUNK = 1 << 24;

/**
 * The entry data from `from` to `end` inflated into a buffer of the `size` its header gives (zlib's default 16 KiB
 * output chunk would keep 16 KiB alive behind every small object read); a CorruptObjectError naming `where` when zlib
 * refuses it. An entry of stored blocks (as a turn's pack writes them) is copied out without zlib.
 */
export function inflateEntry(pack: Buffer, from: number, end: number, size: number, where: string): Buffer {
  const stored = storedData(pack, from, end, size);
  if (stored !== undefined) return stored;
  try {
    return inflateSync(pack.subarray(from, end), { chunkSize: Math.min(MAX_CHUNK, Math.max(64, size)) });
  } catch (err) {
    throw new CorruptObjectError(where, `zlib: ${err instanceof Error ? err.message : String(err)}`);
  }
}
