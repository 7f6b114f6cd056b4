/** Size of a block of a pack file read and kept. */
export const PACK_BLOCK = 16 * 1024;
/** Blocks kept per repository (4 MiB). */
const MAX_BLOCKS = 256;
/** A range longer than this is read as it is, not kept: one large object would push out many blocks. */
const MAX_KEPT_RANGE = 4 * PACK_BLOCK;

/** Reads `length` bytes of a file at `position` into `buf` from `offset`; resolves with how many it read. */
export type ReadAt = (buf: Buffer, offset: number, length: number, position: number) => Promise<{ bytesRead: number }>;

async function readFully(readAt: ReadAt, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length); // only the bytes read are used
  let n = 0;
  while (n < length) {
    const { bytesRead } = await readAt(buf, n, length - n, position + n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return buf.subarray(0, n);
}

/**
 * The bytes `[from, from + length)` of the pack file `pack` (fewer at its end), read in aligned blocks that are kept,
 * least recently used dropped first: the objects a fold reads or a cold start opens were written together and sit
 * together, so their reads share blocks. A pack file never changes under its name (its checksum), so a kept block
 * stays true; `blocks` belongs to one repository object.
 */
export async function readPackRange(blocks: Map<string, Buffer>, pack: string, readAt: ReadAt, from: number, length: number): Promise<Buffer> {
  if (length > MAX_KEPT_RANGE) return readFully(readAt, from, length);
  const first = Math.floor(from / PACK_BLOCK);
  const last = Math.floor((from + length - 1) / PACK_BLOCK);
  const parts: Buffer[] = [];
  for (let b = first; b <= last; b++) {
    const key = `${pack}:${b}`;
    let block = blocks.get(key);
    if (block === undefined) {
      block = await readFully(readAt, b * PACK_BLOCK, PACK_BLOCK);
      if (blocks.size >= MAX_BLOCKS) blocks.delete(blocks.keys().next().value as string);
    } else blocks.delete(key);
    blocks.set(key, block);
    parts.push(block);
    if (block.length < PACK_BLOCK) break; // the end of the file
  }
  const start = from - first * PACK_BLOCK;
  const whole = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  return whole.subarray(Math.min(start, whole.length), Math.min(start + length, whole.length));
}
