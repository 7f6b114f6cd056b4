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

/** True when a zlib stream's first deflate block is stored (BTYPE 00), as {@link zlibStored} writes them. */
export function isZlibStored(stream: Uint8Array): boolean {
  return stream.length > 2 && ((stream[2] as number) & 0b110) === 0;
}
