// Issue 17: git's delta encoding (copy/insert instructions against any offset of the base), checked by applying
// the deltas with the pack reader's applier.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { applyDelta } from '../src/git/internal/delta-apply.js';
import { createDelta, indexBase } from '../src/git/internal/delta-encode.js';

/** A target made from the base by edits: each replaces a span of the base with new bytes (insert, delete, change). */
const edited = fc
  .tuple(
    fc.uint8Array({ minLength: 0, maxLength: 3000 }),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 200 }), fc.uint8Array({ maxLength: 100 })), { maxLength: 8 }),
    fc.boolean(),
  )
  .map(([seed, edits, text]) => {
    // text-like bases repeat themselves (blocks that hash alike), random ones do not
    const base = text ? Buffer.from(Array.from(seed, (b) => `line ${b % 13}: ${'x'.repeat(b % 7)}\n`).join('').slice(0, 3000)) : Buffer.from(seed);
    let target = Buffer.from(base);
    for (const [at, cut, bytes] of edits) {
      const p = target.length === 0 ? 0 : at % target.length;
      target = Buffer.concat([target.subarray(0, p), Buffer.from(bytes), target.subarray(Math.min(target.length, p + cut))]);
    }
    return { base, target };
  });

describe('createDelta', () => {
  test('property: applying the delta to its base rebuilds the target (edited versions of a base, and unrelated buffers)', () => {
    fc.assert(
      fc.property(fc.oneof(edited, fc.record({ base: fc.uint8Array({ maxLength: 2000 }), target: fc.uint8Array({ maxLength: 2000 }) })), ({ base, target }) => {
        const delta = createDelta(indexBase(base), target) as Buffer;
        expect(Buffer.compare(applyDelta(base, delta, 'test'), Buffer.from(target))).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  test('property: with a size limit the delta is null or within it, and still rebuilds the target', () => {
    fc.assert(
      fc.property(edited, fc.nat({ max: 4000 }), ({ base, target }, maxSize) => {
        const delta = createDelta(indexBase(base), target, maxSize);
        if (delta === null) return;
        expect(delta.length).toBeLessThanOrEqual(maxSize);
        expect(Buffer.compare(applyDelta(base, delta, 'test'), target)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  test('a change in the middle costs the change: what is shared before and after it is copied from the base', () => {
    const base = Buffer.from(Array.from({ length: 200 }, (_, i) => `entry ${i} of a long list\n`).join(''));
    const target = Buffer.concat([base.subarray(0, 1000), Buffer.from('a new entry\n'), base.subarray(1000, 3000), base.subarray(3100)]);
    const delta = createDelta(indexBase(base), target) as Buffer;
    expect(delta.length).toBeLessThan(40);
    expect(applyDelta(base, delta, 'test').equals(target)).toBe(true);
  });
});
