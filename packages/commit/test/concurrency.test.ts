import { describe, expect, it } from 'vitest';
import { CommitConflictError } from '../src/index.js';
import type { Session } from '../src/index.js';
import { FS_KINDS, git, stepClock } from './helpers.js';

async function withRetry<T>(fn: () => Promise<T>): Promise<{ value: T; conflicts: number }> {
  for (let conflicts = 0; ; conflicts++) {
    try {
      return { value: await fn(), conflicts };
    } catch (err) {
      if (!(err instanceof CommitConflictError)) throw err;
    }
  }
}

describe.each(FS_KINDS)('two writers on one session ($name)', (kind) => {
  it('never lose an append: the loser gets CommitConflictError and its retry lands', async () => {
    const { repo, gitdir } = await kind.open();
    const clock = stepClock();
    await repo.createSession('chat', { model: 'openai:gpt-4o', clock });
    const w1 = await repo.openSession('chat', { clock });
    const w2 = await repo.openSession('chat', { clock });
    const first = await Promise.allSettled([w1.append({ role: 'user', output: 'one' }), w2.append({ role: 'user', output: 'two' })]);
    expect(first.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = first.find((r) => r.status === 'rejected');
    expect((lost as PromiseRejectedResult).reason).toBeInstanceOf(CommitConflictError);
    const writers: Session[] = [w1, w2, w1, w2, w1, w2];
    const results = await Promise.all(writers.map((w, i) => withRetry(() => w.append({ role: 'user', output: `msg ${i}` }))));
    expect(results.some((r) => r.conflicts > 0)).toBe(true);
    const c = await w1.commit();
    const texts = c.items.map((it) => (it.blocks[0]?.type === 'text' ? it.blocks[0].text : ''));
    for (let i = 0; i < writers.length; i++) expect(texts).toContain(`msg ${i}`);
    expect(texts).toHaveLength(1 + writers.length);
    if (kind.name === 'disk') expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
  });

  it('concurrent commits of one head: one commit wins, the loser conflicts and then finds it', async () => {
    const { repo } = await kind.open();
    const clock = stepClock();
    const w1 = await repo.createSession('chat', { model: 'openai:gpt-4o', clock });
    const w2 = await repo.openSession('chat', { clock });
    await w1.append({ role: 'user', output: 'hello' });
    const both = await Promise.allSettled([w1.commit(), w2.commit()]);
    const won = both.filter((r): r is PromiseFulfilledResult<Awaited<ReturnType<Session['commit']>>> => r.status === 'fulfilled');
    const lost = both.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost[0]?.reason).toBeInstanceOf(CommitConflictError);
    const again = await w2.commit();
    expect(again.id).toBe(won[0]?.value.id);
    expect((await w2.log()).map((e) => e.id)).toEqual([again.id]);
  });
});
