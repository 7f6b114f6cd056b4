import { describe, expect, it } from 'vitest';
import { FS_KINDS, git, stepClock } from './helpers.js';

describe.each(FS_KINDS)('branches on $name', (kind) => {
  it('retry, edit, siblings and checkout: siblings get their own commits, checkout finds them without writing', async () => {
    const { repo } = await kind.open();
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o', clock: stepClock() });
    const q = await s.append({ role: 'user', output: 'Name a colour.' });
    const c0 = await s.commit();
    const a1 = await s.append({ role: 'assistant', output: 'Red.' });
    await s.append({ role: 'user', output: 'Another?' });
    const c1 = await s.commit();
    const a2 = await s.retry(a1.id);
    expect(a2.predecessor).toBe(q.id);
    expect(await s.head()).toBe(a2.id);
    const c2 = await s.commit();
    expect(c2.parentIds).toEqual([c0.id]);
    expect(c2.items.map((i) => i.key)).toEqual([q.id, a2.id]);
    const a3 = await s.edit(a1.id, 'Blue.');
    expect(a3.output).toBe('Blue.');
    expect(await s.siblings(a1.id)).toEqual({ index: 1, total: 3, ids: [a1.id, a2.id, a3.id] });
    expect((await s.siblings(a3.id)).index).toBe(3);
    const c3 = await s.commit();
    expect(c3.parentIds).toEqual([c0.id]);
    const before = await s.log();
    const back = await s.checkout(a1.id, { commit: true });
    // a1's branch: the commit at a1's child head exists, but a1 itself is the head now: a new commit from c0
    expect(back?.headNodeId).toBe(a1.id);
    expect(back?.parentIds).toEqual([c0.id]);
    const again = await s.checkout(a1.id, { commit: true });
    expect(again?.id).toBe(back?.id);
    const user2 = c1.items[2]?.key as string;
    const toC1 = await s.checkout(user2, { commit: true });
    expect(toC1?.id).toBe(c1.id);
    expect((await s.log())[0]?.id).toBe(c1.id);
    expect(before[0]?.id).toBe(c3.id);
    expect(await s.checkout(a2.id)).toBeUndefined();
  });

  it('fork: two sibling sessions share the history before the fork point', async () => {
    const { repo, gitdir } = await kind.open();
    const clock = stepClock();
    const s = await repo.createSession('main', { model: 'openai:gpt-4o', clock });
    await s.append({ role: 'user', output: 'Plan a trip.' });
    const c0 = await s.commit();
    const a = await s.append({ role: 'assistant', output: 'Where to?' });
    await s.append({ role: 'user', output: 'Rome.' });
    const c1 = await s.commit();
    const f = await s.fork('main-alt', { at: a.id });
    expect(f.name).toBe('main-alt');
    expect(await f.head()).toBe(a.id);
    await f.append({ role: 'user', output: 'Paris.' });
    const cf = await f.commit();
    expect(cf.parentIds).toEqual([c0.id]);
    expect(cf.session).toBe('main-alt');
    expect(cf.items.map((i) => i.blocks[0])).toEqual([
      { type: 'text', text: 'Plan a trip.' },
      { type: 'text', text: 'Where to?' },
      { type: 'text', text: 'Paris.' },
    ]);
    expect((await f.log()).map((e) => e.id)).toEqual([cf.id, c0.id]);
    expect(await repo.listSessions()).toEqual(['main', 'main-alt']);
    const m = await repo.merge({ target: 'main', peers: ['main-alt'], instruction: 'Pick one.', clock });
    expect(m.parentIds).toEqual([c1.id, cf.id]);
    if (kind.name === 'disk') {
      const graph = git(gitdir, 'log', '--graph', '--format=%s', 'ctxgit/sessions/main/context', 'ctxgit/sessions/main-alt/context');
      expect(graph).toContain('*   main turn 3');
      expect(graph).toMatch(/\|\\\s*\n/);
      expect(graph).toContain('main-alt turn 2');
      expect(graph).toContain('main turn 2');
      const all = git(gitdir, 'log', '--graph', '--all', '--oneline');
      expect(all).toContain('main turn 3');
      expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
    }
  });
});
