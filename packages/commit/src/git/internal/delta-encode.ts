/**
 * Git's delta encoding (as `diff-delta.c` builds it): the base is indexed by the hash of each of its {@link BLOCK}-byte
 * blocks; the target is scanned with a rolling hash of the same width, a block found in the base is verified and
 * extended forwards and backwards, and the target becomes copy instructions (an offset and a size in the base) for the
 * matches and insert instructions (up to 127 literal bytes each) for the rest. A delta costs what the target has that
 * the base has not, wherever in either the shared bytes lie.
 */

/** Bytes hashed per block: the shortest match the index can find. */
const BLOCK = 16;
/** Candidates kept per hash bucket (git's `HASH_LIMIT`): a run of equal blocks is not searched end to end. */
const BUCKET_LIMIT = 64;
/** A match as long as this is taken at once, without trying the other candidates. */
const GOOD_MATCH = 4096;
/** A match shorter than this is compared with those starting at the next positions of its block. */
const LAZY = 256;
/** Largest size of one copy instruction (3 size bytes). */
const MAX_COPY = 0xffffff;
/** Largest insert instruction. */
const MAX_INSERT = 127;
/** Multiplier of the polynomial hash (odd, mod 2^32). */
const MUL = 0x01000193;
/** MUL to the power BLOCK (mod 2^32): what a byte leaving the window weighs. */
const MUL_OUT = ((): number => {
  let p = 1;
  for (let i = 0; i < BLOCK; i++) p = Math.imul(p, MUL);
  return p;
})();

/** A base indexed for {@link createDelta}: its blocks by hash bucket, in base order (block `b` starts at `b * BLOCK`). */
export interface DeltaIndex {
  readonly base: Uint8Array;
  /** Bucket → its first block (−1: empty). */
  readonly heads: Int32Array;
  /** Block → the next block of its bucket (−1: end). */
  readonly next: Int32Array;
  readonly mask: number;
}

/** The hash of `BLOCK` bytes at `at`. */
function blockHash(bytes: Uint8Array, at: number): number {
  let h = 0;
  for (let i = 0; i < BLOCK; i++) h = (Math.imul(h, MUL) + (bytes[at + i] as number)) | 0;
  return h;
}

/** Indexes `base` for deltas against it (its whole blocks; a base shorter than a block indexes nothing). */
export function indexBase(base: Uint8Array): DeltaIndex {
  const blocks = Math.floor(base.length / BLOCK);
  let size = 16;
  while (size < blocks) size *= 2;
  const heads = new Int32Array(size).fill(-1);
  const next = new Int32Array(blocks);
  const count = new Uint8Array(size);
  const mask = size - 1;
  // from the last block down, each pushed at the head: a bucket lists its blocks in base order; a full one keeps
  // the last BUCKET_LIMIT of them
  for (let b = blocks - 1; b >= 0; b--) {
    const bucket = blockHash(base, b * BLOCK) & mask;
    if ((count[bucket] as number) >= BUCKET_LIMIT) continue;
    count[bucket] = (count[bucket] as number) + 1;
    next[b] = heads[bucket] as number;
    heads[bucket] = b;
  }
  return { base, heads, next, mask };
}

/** A delta being written: its bytes so far in a buffer sized for the largest delta kept. */
interface Out {
  readonly buf: Buffer;
  n: number;
}

/** Appends the varint of `v` (7 bits a byte, low first). */
function pushSize(out: Out, v: number): void {
  let rest = v;
  do {
    const byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
    out.buf[out.n++] = rest > 0 ? byte | 0x80 : byte;
  } while (rest > 0);
}

/** Appends copy instructions for `size` bytes of the base at `offset` (split at {@link MAX_COPY}). */
function pushCopy(out: Out, offset: number, size: number): void {
  const { buf } = out;
  for (let done = 0; done < size; ) {
    const n = Math.min(MAX_COPY, size - done);
    const at = offset + done;
    const opAt = out.n++;
    let op = 0x80;
    for (let i = 0; i < 4; i++) {
      const b = Math.floor(at / 2 ** (8 * i)) & 0xff;
      if (b !== 0) {
        op |= 1 << i;
        buf[out.n++] = b;
      }
    }
    for (let i = 0; i < 3; i++) {
      const b = (n >> (8 * i)) & 0xff;
      if (b !== 0) {
        op |= 0x10 << i;
        buf[out.n++] = b;
      }
    }
    buf[opAt] = op;
    done += n;
  }
}

/** Appends insert instructions for `target[from, to)`. */
function pushInsert(out: Out, target: Uint8Array, from: number, to: number): void {
  for (let i = from; i < to; i += MAX_INSERT) {
    const end = Math.min(i + MAX_INSERT, to);
    out.buf[out.n++] = end - i;
    out.buf.set(target.subarray(i, end), out.n);
    out.n += end - i;
  }
}

/** The hash of the window at `at + 1` from that of the window at `at`. */
const roll = (h: number, bytes: Uint8Array, at: number): number => (Math.imul(h, MUL) - Math.imul(bytes[at] as number, MUL_OUT) + (bytes[at + BLOCK] as number)) | 0;

/** A match of the target in the base: where it starts in the base and how long it is (0: none). */
interface Match {
  at: number;
  len: number;
}

/**
 * The longest match of `target` from `i` among the base blocks of hash `h`, forwards only, written into `best` (no
 * object per position scanned).
 */
function longestMatch(index: DeltaIndex, target: Uint8Array, i: number, h: number, best: Match): void {
  const { base, heads, next, mask } = index;
  best.at = -1;
  best.len = 0;
  for (let block = heads[h & mask] as number; block !== -1; block = next[block] as number) {
    const at = block * BLOCK;
    let len = 0;
    while (at + len < base.length && i + len < target.length && base[at + len] === target[i + len]) len++;
    if (len > best.len) {
      best.at = at;
      best.len = len;
      if (len >= GOOD_MATCH) break;
    }
  }
}

/**
 * A git delta that rebuilds `target` from the indexed base, or null when it would be longer than `maxSize` bytes
 * (the search stops as soon as its output passes that).
 */
export function createDelta(index: DeltaIndex, target: Uint8Array, maxSize = Infinity): Buffer | null {
  const { base } = index;
  // room for the largest delta kept, plus one instruction past it (the check comes after each instruction)
  const bound = Math.min(maxSize, target.length + Math.ceil(target.length / MAX_INSERT) + 20);
  const out: Out = { buf: Buffer.allocUnsafe(bound + 20 + 8 + MAX_INSERT + 1), n: 0 };
  pushSize(out, base.length);
  pushSize(out, target.length);
  let literal = 0; // start of the bytes not yet written
  let i = 0;
  let h = target.length >= BLOCK ? blockHash(target, 0) : 0;
  const match: Match = { at: -1, len: 0 };
  const later: Match = { at: -1, len: 0 };
  while (i + BLOCK <= target.length) {
    longestMatch(index, target, i, h, match);
    if (match.len < BLOCK) {
      // no block of the base here: the byte is a literal, and the window rolls on by one
      if (i + BLOCK < target.length) h = roll(h, target, i);
      i++;
      if (out.n + (i - literal) > maxSize) return null;
      continue;
    }
    // a short match may be a repeated run of the base while the base's own copy of these bytes is aligned on a
    // block only a few bytes on: the match reaching furthest from the next BLOCK - 1 positions is taken
    if (match.len < LAZY) {
      let start = i;
      let hh = h;
      for (let k = i + 1; k < i + BLOCK && k + BLOCK <= target.length; k++) {
        hh = roll(hh, target, k - 1);
        longestMatch(index, target, k, hh, later);
        if (later.len >= BLOCK && k + later.len > start + match.len) {
          match.at = later.at;
          match.len = later.len;
          start = k;
        }
      }
      i = start;
    }
    let { at, len } = match;
    // the match grows backwards over the literals before it
    while (at > 0 && i > literal && base[at - 1] === target[i - 1]) {
      at--;
      i--;
      len++;
    }
    if (out.n + (i - literal) + Math.ceil((i - literal) / MAX_INSERT) > maxSize) return null;
    pushInsert(out, target, literal, i);
    pushCopy(out, at, len);
    if (out.n > maxSize) return null;
    i += len;
    literal = i;
    if (i + BLOCK <= target.length) h = blockHash(target, i);
  }
  const rest = target.length - literal;
  if (out.n + rest + Math.ceil(rest / MAX_INSERT) > maxSize) return null;
  pushInsert(out, target, literal, target.length);
  return Buffer.from(out.buf.subarray(0, out.n));
}
