/** Longest stored block of deflate (RFC 1951): its length field is 16 bits. */
const BLOCK = 65_535;
/** Adler-32's modulus. */
const MOD = 65_521;
/** Bytes summed between reductions: zlib's NMAX, the most for which the sums stay below 2^32. */
const RUN = 5552;

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(data.length, i + RUN);
    for (; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= MOD;
    b %= MOD;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * `data` as a zlib stream of stored (uncompressed) deflate blocks: what `inflate` reads back, written without a
 * zlib call (a sync deflate costs 15–50 µs for any object, most of it setting up its state; this, about 1 µs for a
 * small one).
 */
export function zlibStored(data: Uint8Array): Buffer {
  const blocks = Math.max(1, Math.ceil(data.length / BLOCK));
  const out = Buffer.allocUnsafe(2 + 5 * blocks + data.length + 4);
  // CMF 0x78 (deflate, 32 KiB window), FLG 0x01 (fastest, no dictionary): 0x7801 is a multiple of 31
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let k = 0; k < blocks; k++) {
    const from = k * BLOCK;
    const length = Math.min(BLOCK, data.length - from);
    out[at] = k === blocks - 1 ? 1 : 0; // BFINAL, BTYPE 00
    out.writeUInt16LE(length, at + 1);
    out.writeUInt16LE(~length & 0xffff, at + 3);
    out.set(data.subarray(from, from + length), at + 5);
    at += 5 + length;
  }
  out.writeUInt32BE(adler32(data), at);
  return out;
}

/**
 * The data of the zlib stream at `from` (ending by `end`) when it is all stored deflate blocks holding `size` bytes
 * with a matching checksum — what {@link zlibStored} writes — copied out without a zlib call; `undefined` for any
 * other stream (compressed, damaged or of another size), which zlib then reads as before.
 */
export function storedData(stream: Uint8Array, from: number, end: number, size: number): Buffer | undefined {
  // stored data is never longer than its stream: a (damaged) header's size allocates nothing beyond the bytes at hand
  if (size > end - from) return undefined;
  const cmf = stream[from];
  const flg = stream[from + 1];
  // deflate with a window of at most 32 KiB, a valid header check, no preset dictionary
  if (cmf === undefined || flg === undefined || (cmf & 0x0f) !== 8 || cmf >> 4 > 7 || (cmf * 256 + flg) % 31 !== 0 || flg & 0x20) return undefined;
  const out = Buffer.allocUnsafeSlow(size);
  let at = from + 2;
  let filled = 0;
  for (let final = false; !final; ) {
    if (at + 5 > end) return undefined;
    const head = stream[at] as number;
    // BTYPE 00 (a stored block's header ends its byte: the blocks before it were stored too, so it starts on one)
    if ((head & 0b110) !== 0) return undefined;
    final = (head & 1) === 1;
    const length = (stream[at + 1] as number) | ((stream[at + 2] as number) << 8);
    const check = (stream[at + 3] as number) | ((stream[at + 4] as number) << 8);
    if ((length ^ 0xffff) !== check || filled + length > size || at + 5 + length > end) return undefined;
    out.set(stream.subarray(at + 5, at + 5 + length), filled);
    filled += length;
    at += 5 + length;
  }
  if (filled !== size || at + 4 > end) return undefined;
  const sum = (((stream[at] as number) << 24) | ((stream[at + 1] as number) << 16) | ((stream[at + 2] as number) << 8) | (stream[at + 3] as number)) >>> 0;
  return sum === adler32(out) ? out : undefined;
}

/** True when a zlib stream's first deflate block is stored (BTYPE 00), as {@link zlibStored} writes them. */
export function isZlibStored(stream: Uint8Array): boolean {
  return stream.length > 2 && ((stream[2] as number) & 0b110) === 0;
}
