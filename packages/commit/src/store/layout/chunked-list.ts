/** Positions per chunk. */
const CHUNK = 1024;

/**
 * An immutable list kept in chunks of 1,024: a copy that replaces a few positions and appends copies only the
 * chunks it touches, so a commit of a long session derives its layout from its parent's without copying it.
 */
export class ChunkedList<T> {
  readonly #chunks: readonly (readonly T[])[];
  /** Number of values. */
  readonly length: number;

  private constructor(chunks: readonly (readonly T[])[], length: number) {
    this.#chunks = chunks;
    this.length = length;
  }

  /** The values of `xs`, in chunks. */
  static from<T>(xs: readonly T[]): ChunkedList<T> {
    const chunks: T[][] = [];
    for (let i = 0; i < xs.length; i += CHUNK) chunks.push(xs.slice(i, i + CHUNK));
    return new ChunkedList(chunks, xs.length);
  }

  /** The value at `i` (undefined outside the list). */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.length) return undefined;
    return (this.#chunks[Math.floor(i / CHUNK)] as readonly T[])[i % CHUNK];
  }

  /** A copy with the values of `set` (position → value, positions below the length) replaced and `appended` added. */
  with(set: Iterable<readonly [number, T]>, appended: readonly T[]): ChunkedList<T> {
    const chunks = this.#chunks.slice() as T[][];
    const copied = new Set<number>();
    const own = (c: number): T[] => {
      if (!copied.has(c)) {
        chunks[c] = (chunks[c] ?? []).slice();
        copied.add(c);
      }
      return chunks[c] as T[];
    };
    for (const [i, v] of set) own(Math.floor(i / CHUNK))[i % CHUNK] = v;
    let length = this.length;
    for (const v of appended) {
      own(Math.floor(length / CHUNK)).push(v);
      length++;
    }
    return new ChunkedList(chunks, length);
  }
}
