import { InvalidArgumentError, InvalidEdgeError, MemoryNodeStore, MissingNodeError, appendNode, appendNodes, createSession, type BatchNodeInput, type DagOptions, type NodeStore } from '@ctxgit/dag';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const clockFrom = (): DagOptions => {
  let t = 1000;
  return { clock: () => t++ };
};

/** Every node and record of a session (the record without its version), as text. */
async function dump(store: NodeStore, session: string): Promise<string> {
  const rec = await store.getSession(session);
  const out: unknown[] = [{ ...rec, version: 0 }];
  const stack = [...(await store.rootsOf(session))];
  while (stack.length > 0) {
    const id = stack.shift() ?? '';
    out.push(await store.getNode(id));
    stack.push(...(await store.childrenOf(id)), ...(await store.calleesOf(id)));
  }
  return JSON.stringify(out);
}

/** A turn: a user message, an assistant reply, and tool results hanging under it. */
const turn = fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }));

describe('appendNodes', () => {
  it('stores what the same appendNode calls one by one store (ids, seqs, edges, head), in one write', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 4 }), async (turns) => {
        const one = new MemoryNodeStore();
        const batch = new MemoryNodeStore();
        await createSession(one, 's');
        await createSession(batch, 's');
        const o1 = clockFrom();
        const o2 = clockFrom();
        for (const [q, a, tools] of turns) {
          const inputs: BatchNodeInput[] = [{ role: 'user', output: q }, { role: 'assistant', output: a }, ...tools.map((t) => ({ role: 'tool' as const, name: 'ls', output: t, caller: 1 }))];
          await appendNode(one, 's', { role: 'user', output: q }, o1);
          const asst = await appendNode(one, 's', { role: 'assistant', output: a }, o1);
          for (const t of tools) await appendNode(one, 's', { role: 'tool', name: 'ls', output: t, caller: asst.id }, o1);
          const before = (await batch.getSession('s'))?.version ?? 0;
          const nodes = await appendNodes(batch, 's', inputs, o2);
          expect(nodes.map((n) => n.role)).toEqual(inputs.map((i) => i.role));
          expect((await batch.getSession('s'))?.version).toBe(before + 1);
        }
        expect(await dump(batch, 's')).toBe(await dump(one, 's'));
      }),
      { numRuns: 25 },
    );
  });

  it('refuses a bad batch and writes nothing', async () => {
    const store = new MemoryNodeStore();
    await createSession(store, 's');
    const before = await dump(store, 's');
    await expect(appendNodes(store, 's', [])).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(appendNodes(store, 's', [{ role: 'user', output: 'q' }, { role: 'tool', name: 'x', output: 'r', caller: 1 }])).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(appendNodes(store, 's', [{ role: 'user', output: 'q' }, { role: 'tool', name: 'x', output: 'r', caller: 0 }])).rejects.toBeInstanceOf(InvalidEdgeError);
    await expect(appendNodes(store, 's', [{ role: 'user', output: 'q' }, { role: 'tool', name: 'x', output: 'r', caller: 'nope' }])).rejects.toBeInstanceOf(MissingNodeError);
    expect(await dump(store, 's')).toBe(before);
  });
});
