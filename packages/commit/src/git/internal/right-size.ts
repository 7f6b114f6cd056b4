/**
 * `buf` itself, or a copy of it when the memory behind it is far larger (zlib's sync calls return a view of a
 * 16 KiB output chunk however small the result): kept in a long list, each such view keeps its whole chunk alive.
 */
export function rightSize(buf: Buffer): Buffer {
  return buf.buffer.byteLength > 2 * buf.length + 64 ? Buffer.from(buf) : buf;
}
