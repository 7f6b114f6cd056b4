import { CorruptObjectError } from '../errors.js';

/** Rebuilds a delta's target from its base (git's copy/insert instructions). */
export function applyDelta(base: Uint8Array, delta: Uint8Array, where: string): Buffer {
  let i = 0;
  const varint = (): number => {
    let n = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = delta[i++] as number;
      n += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80 && i < delta.length);
    return n;
  };
  if (varint() !== base.length) throw new CorruptObjectError(where, 'delta base size mismatch');
  const out = Buffer.alloc(varint());
  let o = 0;
  while (i < delta.length) {
    const op = delta[i++] as number;
    if (op & 0x80) {
      let off = 0;
      let size = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) off += (delta[i++] as number) * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (0x10 << b)) size |= (delta[i++] as number) << (8 * b);
      if (size === 0) size = 0x10000;
      if (off + size > base.length || o + size > out.length) throw new CorruptObjectError(where, 'delta copies outside its base');
      out.set(base.subarray(off, off + size), o);
      o += size;
    } else if (op > 0) {
      if (o + op > out.length || i + op > delta.length) throw new CorruptObjectError(where, 'delta inserts past its end');
      out.set(delta.subarray(i, i + op), o);
      i += op;
      o += op;
    } else throw new CorruptObjectError(where, 'delta opcode 0');
  }
  if (o !== out.length) throw new CorruptObjectError(where, 'delta result size mismatch');
  return out;
}
