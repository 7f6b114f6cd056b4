import { branchView } from '@ctxgit/dag';
import fc from 'fast-check';
import { Volume, createFsFromVolume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../src/index.js';
import type { ContextCommit, FsLike } from '../src/index.js';
import { stepClock } from './helpers.js';

type Op = { kind: 'user' | 'assistant' | 'commit' | 'retry' | 'checkout'; pick: number };

const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('user', 'assistant', 'commit', 'commit', 'retry', 'checkout'),
  pick: fc.nat(),
});

describe('engine invariants under random operation sequences (memfs)', () => {
  it('each commit holds exactly the branch view of its head, has at most one parent, and is never rewritten', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 24 }), async (ops) => {
        const fs = createFsFromVolume(new Volume()) as unknown as FsLike;
        const clock = stepClock();
        const repo = await openRepo({ memory: true, fs, clock, fsync: false });
        const s = await repo.createSession('p', { model: 'openai:gpt-4o', clock });
        const conversation: string[] = [];
        const seen: ContextCommit[] = [];
        for (const [i, o] of ops.entries()) {
          const target = conversation[o.pick % Math.max(1, conversation.length)];
          if (o.kind === 'user') conversation.push((await s.append({ role: 'user', output: `u${i}` })).id);
          else if (o.kind === 'assistant') {
            const a = await s.append({ role: 'assistant', output: `a${i}` });
            conversation.push(a.id);
            if (o.pick % 2 === 0) await s.append({ role: 'tool', name: 'ls', output: `t${i}`, caller: a.id });
          } else if (o.kind === 'retry' && target !== undefined) conversation.push((await s.retry(target)).id);
          else if (o.kind === 'checkout' && target !== undefined) await s.checkout(target);
          else if (o.kind === 'commit' && conversation.length > 0) {
            const c = await s.commit();
            const view = await branchView(repo.store, c.headNodeId);
            expect(new Set(c.items.map((it) => it.sourceNodeId))).toEqual(new Set(view.map((n) => n.id)));
            expect(c.items).toHaveLength(view.length);
            expect(c.parentIds.length).toBeLessThanOrEqual(1);
            expect(c.headNodeId).toBe(await s.head());
            expect((await s.commit()).id).toBe(c.id);
            seen.push(c);
          }
        }
        const fresh = await openRepo({ memory: true, fs, fsync: false });
        for (const c of seen) expect(await fresh.readCommit(c.id)).toEqual(c);
      }),
      { numRuns: 30 },
    );
  });
});
