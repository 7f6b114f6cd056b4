import { describe, expect, it } from 'vitest';
import { FS_KINDS, git, stepClock } from './helpers.js';

describe.each(FS_KINDS)('merging a fork back on $name', (kind) => {
  it('attaches only what the fork added since the common history; no shared item twice', async () => {
    const { repo } = await kind.open();
    const clock = stepClock();
    const main = await repo.createSession('main', { model: 'openai:gpt-4o', clock });
    for (let i = 0; i < 7; i++) {
      await main.append({ role: 'user', output: `question ${i}: what is ${i} squared?` });
      await main.append({ role: 'assistant', output: `${i} squared is ${i * i}.` });
    }
    const before = await main.commit();
    expect(before.items).toHaveLength(14);
    const side = await main.fork('side');
    await side.append({ role: 'user', output: 'And 7 squared?' });
    await side.append({ role: 'assistant', output: '7 squared is 49.' });
    await side.commit();
    const merged = await repo.merge({ target: 'main', peers: ['side'] });
    const attached = merged.items.filter((i) => i.attachedFrom !== undefined);
    expect(attached.map((i) => i.blocks.map((b) => (b.type === 'text' ? b.text : '')).join(''))).toEqual(['And 7 squared?', '7 squared is 49.']);
    const texts = merged.items.map((i) => i.blocks.map((b) => (b.type === 'text' ? b.text : '')).join(''));
    expect(texts.filter((t) => t === 'question 0: what is 0 squared?')).toHaveLength(1);
    expect(merged.items).toHaveLength(14 + 2);
    expect(merged.parentIds).toHaveLength(2);
  });

  it('a fork that added nothing merges as one pointer item saying so', async () => {
    const { repo } = await kind.open();
    const main = await repo.createSession('main', { model: 'openai:gpt-4o', clock: stepClock() });
    await main.append({ role: 'user', output: 'hi' });
    await main.append({ role: 'assistant', output: 'hello' });
    await main.commit();
    await main.fork('idle');
    const merged = await repo.merge({ target: 'main', peers: ['idle'] });
    const attached = merged.items.filter((i) => i.attachedFrom !== undefined);
    expect(attached).toHaveLength(1);
    expect(attached[0]?.reason).toBe('attach_nothing_new');
    expect(JSON.stringify(attached[0]?.blocks)).toContain('nothing new');
  });

  it("fork and merge commits are dated by the sessions' clock, not the wall clock", async () => {
    const { repo, gitdir } = await kind.open(() => 4_000_000_000_000); // the repository's clock: year 2096
    const clock = stepClock(1_500_000_000_000); // the session's: 2017
    const main = await repo.createSession('main', { model: 'openai:gpt-4o', clock });
    await main.append({ role: 'user', output: 'hi' });
    await main.append({ role: 'assistant', output: 'hello' });
    await main.commit();
    const side = await main.fork('side');
    await side.append({ role: 'user', output: 'more' });
    await side.commit();
    const merged = await repo.merge({ target: 'main', peers: ['side'] });
    expect(merged.createdAt).toBeLessThan(1_600_000_000_000);
    if (kind.name === 'disk') {
      for (const ref of ['ctxgit/sessions/main/dag', 'ctxgit/sessions/side/dag', 'ctxgit/sessions/main/context']) {
        const times = git(gitdir, 'log', '--format=%at', ref).trim().split('\n').map(Number);
        expect(Math.max(...times), ref).toBeLessThan(1_600_000_000);
      }
    }
  });
});
