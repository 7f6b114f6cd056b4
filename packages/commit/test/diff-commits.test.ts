import { diffCommits, openRepo } from '@ctxgit/commit';
import type { ContextCommit } from '@ctxgit/commit';
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

  it('places what a nested summary of the newer commit folded: diffCommits through folds, repo.diff from git', async () => {
    let t = Date.UTC(2026, 0, 1);
    const repo = await openRepo({ memory: true, clock: () => (t += 1000) });
    const s = await repo.createSession('n', { model: 'openai:gpt-4o', window: 3000, band: { foldAt: 0.9 } });
    await s.append({ role: 'user', output: 'start' });
    const commits = [await s.commit()];
    for (let i = 0; i < 40; i++) {
      await s.append({ role: 'user', output: `question ${i} about order ORD-${1000 + i}` });
      await s.append({ role: 'assistant', output: `answer ${i} `.repeat(40 + (i % 7) * 15) });
      if (i % 20 === 19) commits.push(await s.commit());
    }
    const [, a, b] = commits as [unknown, ContextCommit, ContextCommit];
    const live = new Set(b.items.map((it) => it.key));
    const direct = new Set(b.items.flatMap((it) => it.folded ?? []));
    const nested = a.items.filter((it) => !live.has(it.key) && !direct.has(it.key));
    expect(nested.length).toBeGreaterThan(0); // the scenario: b folded them into a summary that another of b's absorbed
    // Alone, diffCommits cannot tell them from items that left.
    expect(diffCommits(a, b).changes.filter((c) => c.to === null).map((c) => c.key)).toEqual(nested.map((it) => it.key));
    const d = await repo.diff(a.id, b.id);
    expect([d.a, d.b, d.tokens]).toEqual([a.id, b.id, [a.totalTokens, b.totalTokens]]);
    const gone = a.items.filter((it) => !live.has(it.key));
    expect(d.changes.filter((c) => c.to === 'summarized').map((c) => [c.key, c.from, c.reason])).toEqual(gone.map((it) => [it.key, it.state, 'folded']));
    expect(d.changes.some((c) => c.to === null)).toBe(false);
    // Checked against the originals: what a's folded items stand for is under b's new summaries.
    const under = async (c: ContextCommit, keys: readonly string[]): Promise<string[]> =>
      (await Promise.all(keys.map(async (k) => (await s.expand(k, { commit: c.id })).originals.map((o) => o.key)))).flat();
    const fresh = b.items.filter((it) => it.state === 'summary' && !a.items.some((x) => x.key === it.key)).map((it) => it.key);
    const originals = new Set(await under(b, fresh));
    for (const it of gone) {
      const behind = it.state === 'summary' ? await under(a, [it.key]) : [it.key];
      expect(behind.every((k) => originals.has(k))).toBe(true);
    }
  });
});
