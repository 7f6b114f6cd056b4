import { MemoryNodeStore } from '@ctxgit/dag';
import { describe, expect, it } from 'vitest';
import { nodeStoreConformance } from './node-store-conformance.js';

nodeStoreConformance('MemoryNodeStore', async () => new MemoryNodeStore());

describe('MemoryNodeStore specifics', () => {
  it('hands out frozen nodes, records and lists', async () => {
    const s = new MemoryNodeStore();
    await s.write({
      expected: null,
      next: { id: 'a', head: 'n1', nextSeq: 1, agentRunning: false, version: 1 },
      nodes: [{ id: 'n1', session: 'a', seq: 0, createdAt: 0, role: 'user', output: 'x', metadata: { k: [1] } }],
    });
    const n = await s.getNode('n1');
    expect(Object.isFrozen(n)).toBe(true);
    expect(Object.isFrozen(n?.metadata?.['k'])).toBe(true);
    expect(Object.isFrozen(await s.getSession('a'))).toBe(true);
    expect(Object.isFrozen(await s.rootsOf('a'))).toBe(true);
    expect(Object.isFrozen(await s.listSessions())).toBe(true);
    expect(() => ((n as { output: string }).output = 'y')).toThrow(TypeError);
  });

  it('refuses a next record for another session than expected', async () => {
    const s = new MemoryNodeStore();
    const a = { id: 'a', head: null, nextSeq: 0, agentRunning: false, version: 1 };
    await s.write({ expected: null, next: a, nodes: [] });
    await expect(s.write({ expected: a, next: { ...a, id: 'b', version: 2 }, nodes: [] })).rejects.toMatchObject({ code: 'E_DAG_INVALID_ARGUMENT' });
    expect(await s.getSession('b')).toBeUndefined();
  });
});
