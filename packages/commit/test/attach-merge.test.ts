import { appendAttach } from '@ctxgit/dag';
import { describe, expect, it } from 'vitest';
import { FS_KINDS, git, stepClock } from './helpers.js';

describe.each(FS_KINDS)('attach and merge on $name', (kind) => {
  it('expands an attach once, contiguous, full, unlocked, marked attachedFrom', async () => {
    const { repo } = await kind.open();
    const clock = stepClock();
    const research = await repo.createSession('research', { model: 'openai:gpt-4o', clock });
    await research.append({ role: 'user', output: 'Find the capital of France.' });
    const ra = await research.append({ role: 'assistant', output: 'Searching.' });
    const rt = await research.append({ role: 'tool', name: 'search', input: { q: 'capital of France' }, output: 'Paris', caller: ra.id });
    await research.append({ role: 'assistant', output: 'Paris.' });
    const rc = await research.commit();
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o', clock });
    await s.append({ role: 'user', output: 'Hi.' });
    await s.commit();
    const pointer = await s.attach({ session: 'research', commit: rc.id });
    expect(pointer.metadata?.['attach']).toEqual({ session: 'research', head: rc.headNodeId, commit: rc.id });
    await s.append({ role: 'user', output: 'What did research find?' });
    const c = await s.commit();
    const attached = c.items.filter((i) => i.attachedFrom === pointer.id);
    expect(attached).toHaveLength(rc.items.length);
    expect(c.items.map((i) => i.attachedFrom === pointer.id)).toEqual([false, true, true, true, true, false]);
    expect(attached.every((i) => i.state === 'full' && !i.locked && i.reason === 'attached_from:research')).toBe(true);
    const tool = attached.find((i) => i.role === 'tool');
    expect(tool?.blocks[0]).toMatchObject({ type: 'tool_call', id: `at${pointer.id.slice(0, 8)}_${rt.id}`, name: 'search' });
    expect(tool?.blocks[1]).toMatchObject({ type: 'tool_result', callId: `at${pointer.id.slice(0, 8)}_${rt.id}`, output: 'Paris' });
    expect(c.parentIds).toHaveLength(1);
    await s.append({ role: 'assistant', output: 'Paris.' });
    await s.append({ role: 'user', output: 'Thanks.' });
    const later = await s.commit();
    expect(later.items.filter((i) => i.attachedFrom === pointer.id)).toHaveLength(rc.items.length);
    expect(later.items).toHaveLength(c.items.length + 2);
  });

  it('falls back to one user item when the attached commit cannot be loaded', async () => {
    const { repo } = await kind.open();
    const clock = stepClock();
    const other = await repo.createSession('other', { model: 'openai:gpt-4o', clock });
    const o = await other.append({ role: 'user', output: 'x' });
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o', clock });
    const p = await appendAttach(repo.store, 'chat', { session: 'other', head: o.id, commit: '0'.repeat(40) }, { clock });
    const c = await s.commit();
    expect(c.items).toHaveLength(1);
    expect(c.items[0]).toMatchObject({ key: p.id, role: 'user', state: 'full', locked: false, attachedFrom: p.id, reason: 'attach_unavailable' });
    expect(JSON.stringify(c.items[0]?.blocks)).toContain('could not be loaded');
  });

  it('merge: pointers per peer, instruction, multi-parent commit, locked base block, peers marked merged', async () => {
    const { repo, gitdir } = await kind.open();
    const clock = stepClock();
    const t = await repo.createSession('t', { model: 'openai:gpt-4o', clock });
    await t.append({ role: 'user', output: 'Split the work.' });
    const tc = await t.commit();
    const a = await t.fork('a');
    const b = await t.fork('b');
    await a.append({ role: 'assistant', output: 'A did part one.' });
    await b.append({ role: 'assistant', output: 'B did part two.' });
    const ac = await a.commit();
    const m = await repo.merge({ target: 't', peers: ['a', 'b'], instruction: 'Combine both parts.', clock });
    const bc = (await b.log())[0];
    expect(bc?.headNodeId).toBe(await b.head());
    expect(m.parentIds).toEqual([tc.id, ac.id, bc?.id]);
    const blocks = new Map<string, boolean[]>();
    for (const it of m.items) if (it.attachedFrom !== undefined) blocks.set(it.attachedFrom, [...(blocks.get(it.attachedFrom) ?? []), it.locked]);
    // each peer brings only what it added since the fork (the shared 'Split the work.' is the target's already)
    expect([...blocks.values()]).toEqual([[true], [false]]);
    expect(m.items[m.items.length - 1]?.blocks[0]).toEqual({ type: 'text', text: 'Combine both parts.' });
    expect(m.summary.added).toBe(3);
    const { readRef } = await import('../src/git/index.js');
    expect(await readRef(repo.git, 'refs/ctxgit/sessions/a/merged')).toBe(m.id);
    expect(await readRef(repo.git, 'refs/ctxgit/sessions/b/merged')).toBe(m.id);
    expect((await t.log())[0]?.message).toContain('Merges: a at ');
    if (kind.name === 'disk') {
      expect(git(gitdir, 'rev-list', '--parents', '-n', '1', m.id).trim().split(' ')).toHaveLength(4);
      expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
    }
  });

  it('plain attaches never make multi-parent commits', async () => {
    const { repo } = await kind.open();
    const clock = stepClock();
    const x = await repo.createSession('x', { model: 'openai:gpt-4o', clock });
    await x.append({ role: 'user', output: 'x' });
    const y = await repo.createSession('y', { model: 'openai:gpt-4o', clock });
    await y.append({ role: 'user', output: 'y' });
    await y.attach({ session: 'x' });
    const c = await y.commit();
    expect(c.parentIds).toEqual([]);
    expect(c.items.map((i) => i.attachedFrom !== undefined)).toEqual([false, true]);
  });
});
