// Reads of a pack file through kept blocks give the bytes a plain read at the position gives, whatever the ranges.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PACK_BLOCK, readPackRange } from '../src/git/internal/pack-blocks.js';
import type { ReadAt } from '../src/git/internal/pack-blocks.js';

/** A file of `bytes` read at a position, at most `chunk` bytes a call (as a file system may), counting the calls. */
function file(bytes: Buffer, chunk: number): { readAt: ReadAt; calls: () => number } {
  let calls = 0;
  const readAt: ReadAt = async (buf, offset, length, position) => {
    calls++;
    const n = Math.max(0, Math.min(length, chunk, bytes.length - position));
    if (n > 0) bytes.copy(buf, offset, position, position + n);
    return { bytesRead: n };
  };
  return { readAt, calls: () => calls };
}

describe('readPackRange', () => {
  test('property: any sequence of ranges reads what a plain read at the position reads (file end, block edges, eviction)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10 * PACK_BLOCK }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 5 * PACK_BLOCK })), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(PACK_BLOCK, 4096, 100_000),
        async (size, ranges, chunk) => {
          const bytes = Buffer.alloc(size);
          for (let i = 0; i < size; i++) bytes[i] = (i * 131 + (i >> 8)) & 0xff;
          const { readAt } = file(bytes, chunk);
          const blocks = new Map<string, Buffer>();
          for (const [at, length] of ranges) {
            const from = at % (size + 10); // past the end too
            const got = await readPackRange(blocks, 'pack-x', readAt, from, length);
            expect(got.equals(bytes.subarray(Math.min(from, size), Math.min(from + length, size)))).toBe(true);
          }
          expect(blocks.size).toBeLessThanOrEqual(256);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('objects that sit together share their reads; another pack of the same offsets does not', async () => {
    const bytes = Buffer.alloc(3 * PACK_BLOCK, 7);
    const a = file(bytes, PACK_BLOCK);
    const blocks = new Map<string, Buffer>();
    for (let at = 0; at < PACK_BLOCK - 4096; at += 1000) await readPackRange(blocks, 'pack-a', a.readAt, at, 4096);
    expect(a.calls()).toBe(1);
    const b = file(Buffer.alloc(3 * PACK_BLOCK, 9), PACK_BLOCK);
    expect((await readPackRange(blocks, 'pack-b', b.readAt, 10, 4))[0]).toBe(9);
    expect(b.calls()).toBe(1);
  });
});
