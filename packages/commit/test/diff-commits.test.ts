import { diffCommits, openRepo } from '@ctxgit/commit';
import { describe, expect, it } from 'vitest';

describe('diffCommits', () => {
  it('lists new, changed and removed items with the rules reason', async () => {
    let t = Date.UTC(2026, 0, 1);
    const repo = await openRepo({ memory: true, clock: () => (t += 1000) });
    const s = await repo.createSession('d', { model: 'openai:gpt-4o' });
    await s.append({ role: 'user', output: 'hello' });
    const a = await s.commit();
    await s.append({ role: 'assistant', output: 'hi' });
    await s.append({ role: 'user', output: 'bye' });
    const b = await s.commit();
    const d = diffCommits(a, b);
    expect(d.a).toBe(a.id);
    expect(d.b).toBe(b.id);
    expect(d.tokens).toEqual([a.totalTokens, b.totalTokens]);
    expect(d.changes.map((c) => [c.role, c.from, c.to, c.reason])).toEqual([
      ['assistant', null, 'full', 'new'],
      ['user', null, 'full', 'new'],
    ]);
    expect(diffCommits(b, b).changes).toEqual([]);
    const back = diffCommits(b, a);
    expect(back.changes.map((c) => [c.role, c.from, c.to, c.reason])).toEqual([
      ['assistant', 'full', null, 'not in the newer commit'],
      ['user', 'full', null, 'not in the newer commit'],
    ]);
  });
});
