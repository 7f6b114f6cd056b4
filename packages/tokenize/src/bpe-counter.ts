import type { TiktokenBPE } from 'js-tiktoken/lite';
import { asciiPattern } from './ascii-pattern.js';

// Pieces up to this many bytes use the direct scan (as tiktoken does); longer ones the O(n log n) heap merge.
const SCAN_LIMIT = 64;
// Merged pieces remembered (piece → count), dropped wholesale when full: bounds memory, keeps repeats cheap.
const MERGED_LIMIT = 50_000;
const POS = 2 ** 26; // > 3 × MAX_TEXT_LENGTH bytes would not fit; positions are per piece and pieces are < 2^26 bytes
/** A character above U+007F. */
const NON_ASCII = /[^\x00-\x7f]/u;

/**
 * Counts BPE tokens over js-tiktoken rank data, without building token ids.
 *
 * @remarks Same split (the encoding's `pat_str`) and the same merge order as tiktoken — the lowest-rank adjacent pair
 * first, the leftmost on ties — but a long piece merges through a binary heap, O(n log n) instead of O(n²), so a long
 * run of spaces or punctuation cannot stall. Byte strings are kept as one-char-per-byte strings for cheap slicing.
 */
export class BpeCounter {
  private readonly ranks = new Map<string, number>();
  private readonly pattern: RegExp;
  /** The split for text that is all ASCII (see {@link asciiPattern}), when the encoding's pattern has one. */
  private readonly asciiPattern: RegExp | undefined;
  private readonly encoder = new TextEncoder();
  private buffer = new Uint8Array(1024);
  private readonly merged = new Map<string, number>();

  constructor(data: TiktokenBPE) {
    this.pattern = new RegExp(data.pat_str, 'gu');
    const ascii = asciiPattern(data.pat_str);
    this.asciiPattern = ascii === undefined ? undefined : new RegExp(ascii, 'g');
    for (const line of data.bpe_ranks.split('\n')) {
      if (line === '') continue;
      const fields = line.split(' ');
      const offset = Number.parseInt(fields[1] ?? '', 10);
      for (let i = 2; i < fields.length; i++) this.ranks.set(atob(fields[i] as string), offset + i - 2);
    }
  }

  count(text: string): number {
    let total = 0;
    // exec on the one pattern, not matchAll: matchAll clones the pattern, and the clone's compiled code comes from
    // V8's regexp cache, which garbage collection empties (o200k's pattern then takes ~20 ms to compile again)
    const pattern = this.asciiPattern !== undefined && !NON_ASCII.test(text) ? this.asciiPattern : this.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      // the split patterns never match empty; were one to, step past it as matchAll does (it counts nothing)
      if (match[0] === '') {
        pattern.lastIndex += (text.codePointAt(pattern.lastIndex) ?? 0) > 0xffff ? 2 : 1;
        continue;
      }
      const piece = this.bytes(match[0]);
      if (piece.length === 1 || this.ranks.has(piece)) {
        total += 1;
        continue;
      }
      let n = this.merged.get(piece);
      if (n === undefined) {
        n = piece.length <= SCAN_LIMIT ? this.scan(piece) : this.heap(piece);
        if (this.merged.size >= MERGED_LIMIT) this.merged.clear();
        this.merged.set(piece, n);
      }
      total += n;
    }
    return total;
  }

  private bytes(piece: string): string {
    let ascii = true;
    for (let i = 0; i < piece.length; i++) {
      if (piece.charCodeAt(i) > 127) {
        ascii = false;
        break;
      }
    }
    if (ascii) return piece;
    if (this.buffer.length < piece.length * 3) this.buffer = new Uint8Array(piece.length * 3);
    const { written } = this.encoder.encodeInto(piece, this.buffer);
    let out = '';
    for (let i = 0; i < written; i += 4096) out += String.fromCharCode(...this.buffer.subarray(i, Math.min(written, i + 4096)));
    return out;
  }

  private rank(piece: string, start: number, end: number): number {
    return this.ranks.get(piece.slice(start, end)) ?? Infinity;
  }

  /** tiktoken's direct merge: parts as boundaries, rescanning adjacent pairs. */
  private scan(piece: string): number {
    const bounds: number[] = [];
    for (let i = 0; i <= piece.length; i++) bounds.push(i);
    const pairRanks: number[] = [];
    for (let i = 0; i + 2 < bounds.length; i++) pairRanks.push(this.rank(piece, i, i + 2));
    for (;;) {
      let min = Infinity;
      let at = -1;
      for (let i = 0; i < pairRanks.length; i++) {
        const r = pairRanks[i] as number;
        if (r < min) {
          min = r;
          at = i;
        }
      }
      if (at < 0) return bounds.length - 1;
      bounds.splice(at + 1, 1);
      pairRanks.splice(at, 1);
      if (at < pairRanks.length) pairRanks[at] = this.rank(piece, bounds[at] as number, bounds[at + 2] as number);
      if (at > 0) pairRanks[at - 1] = this.rank(piece, bounds[at - 1] as number, bounds[at + 1] as number);
    }
  }

  /** Heap merge over a linked list of parts; entries are `rank × POS + start`, stale ones skipped. */
  private heap(piece: string): number {
    const n = piece.length;
    const next = new Int32Array(n + 1);
    const prev = new Int32Array(n + 1);
    for (let i = 0; i <= n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
    }
    const alive = new Uint8Array(n + 1).fill(1);
    const heap: number[] = [];
    const push = (start: number): void => {
      const mid = next[start] as number;
      if (mid >= n) return;
      const r = this.rank(piece, start, next[mid] as number);
      if (r !== Infinity) heapPush(heap, r * POS + start);
    };
    for (let i = 0; i < n - 1; i++) push(i);
    let parts = n;
    while (heap.length > 0) {
      const top = heapPop(heap);
      const start = top % POS;
      const r = (top - start) / POS;
      if (alive[start] === 0) continue;
      const mid = next[start] as number;
      if (mid >= n) continue;
      const end = next[mid] as number;
      if (this.rank(piece, start, end) !== r) continue;
      alive[mid] = 0;
      next[start] = end;
      prev[end] = start;
      parts--;
      push(start);
      const before = prev[start] as number;
      if (before >= 0) push(before);
    }
    return parts;
  }
}

function heapPush(heap: number[], value: number): void {
  let i = heap.length;
  heap.push(value);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const p = heap[parent] as number;
    if (p <= value) break;
    heap[i] = p;
    i = parent;
  }
  heap[i] = value;
}

function heapPop(heap: number[]): number {
  const top = heap[0] as number;
  const last = heap.pop() as number;
  if (heap.length === 0) return top;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= heap.length) break;
    const r = l + 1;
    const c = r < heap.length && (heap[r] as number) < (heap[l] as number) ? r : l;
    if ((heap[c] as number) >= last) break;
    heap[i] = heap[c] as number;
    i = c;
  }
  heap[i] = last;
  return top;
}
