import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { openGit } from '../src/git/open-git.js';
import { cachedObject, cacheObject, stateOf } from '../src/git/internal/state.js';

describe('decoded object cache', () => {
  test('holds the bytes of a small object, not the zlib chunk it was inflated into', async () => {
    const state = stateOf(await openGit({ memory: true }));
    const inflated = inflateSync(deflateSync(Buffer.from('{"id":"n1"}\n')));
    expect(inflated.buffer.byteLength).toBeGreaterThan(4 * inflated.byteLength); // node hands out a view of a larger chunk
    cacheObject(state, 'a'.repeat(40), { type: 'blob', content: inflated });
    const hit = cachedObject(state, 'a'.repeat(40));
    expect(Buffer.from(hit?.content ?? []).toString()).toBe('{"id":"n1"}\n');
    expect(hit?.content.buffer.byteLength).toBe(inflated.byteLength);
  });

  test('keeps an object that owns its bytes as it is', async () => {
    const state = stateOf(await openGit({ memory: true }));
    const content = Buffer.from(new Uint8Array(64).fill(1).buffer);
    cacheObject(state, 'b'.repeat(40), { type: 'blob', content });
    expect(cachedObject(state, 'b'.repeat(40))?.content).toBe(content);
  });
});
