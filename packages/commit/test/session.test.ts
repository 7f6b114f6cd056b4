import { describe, expect, it } from 'vitest';
import type { Repo, Session } from '../src/index.js';
import { FS_KINDS, git, stepClock } from './helpers.js';

async function chat(repo: Repo, clock: () => number): Promise<{ s: Session; ids: string[] }> {
  const s = await repo.createSession('chat-42', { model: 'openai:gpt-4o', clock });
  const ids: string[] = [];
  await s.append({ role: 'system', output: 'You are terse.' });
  await s.append({ role: 'user', output: 'List the files.' });
  ids.push((await s.commit()).id);
  const a = await s.append({ role: 'assistant', output: 'Looking.' });
  await s.append({ role: 'tool', name: 'ls', input: { path: '.' }, output: 'a.txt\nb.txt', caller: a.id });
  await s.append({ role: 'assistant', output: 'Two files: a.txt and b.txt.' });
  await s.append({ role: 'user', output: 'Thanks.' });
  ids.push((await s.commit()).id);
  return { s, ids };
}

describe.each(FS_KINDS)('session on $name', (kind) => {
  it('writes deterministic commits: exact ids with an injected clock', async () => {
    const { repo } = await kind.open();
    const { ids } = await chat(repo, stepClock());
    expect(ids).toEqual(['e9a26bd14fa1a367567487460e946233faa15f1c', 'b0d3c35a674ae20eb421dfc5a55b63a20ab8b763']); // layout 3 (live list, pretty item blobs, folded items by their live blobs) and Rules-Version aging@3+idle@1+fold@14+cap@3
  });

  it('returns the existing commit when the head has one, and writes a child for new nodes', async () => {
    const { repo } = await kind.open();
    const { s, ids } = await chat(repo, stepClock());
    const again = await s.commit();
    expect(again.id).toBe(ids[1]);
    const c = await repo.readCommit(ids[1] as string);
    expect(c.parentIds).toEqual([ids[0]]);
    expect(c.items.map((i) => i.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(c.items.every((i) => i.state === 'full')).toBe(true);
    expect(c.headNodeId).toBe(await s.head());
    expect(c.rulesVersion).toBe('aging@3+idle@1+fold@14+cap@3');
    expect(c.totalTokens).toBe(c.items.reduce((n, i) => n + i.tokens, 0));
    expect(c.summary).toMatchObject({ added: 4, firstChangedIndex: 2 });
    expect(again).toEqual(c);
  });

  it('reopens a session with its stored model and sizes', async () => {
    const { repo } = await kind.open();
    await repo.createSession('s1', { model: 'openai:my-model', window: 32_000, budget: 20_000 });
    const s = await repo.openSession('s1');
    expect([s.model, s.window, s.historyBudget]).toEqual(['openai:my-model', 32_000, 20_000]);
    expect(await repo.listSessions()).toEqual(['s1']);
  });

  it('records provider usage into the occupancy record', async () => {
    const { repo } = await kind.open();
    const { s, ids } = await chat(repo, stepClock());
    const before = await s.occupancy();
    expect(before).toMatchObject({ window: 128_000, basis: 'estimated' });
    await s.recordUsage({ inputTokens: 10, cacheReadTokens: 30 });
    const after = await s.occupancy();
    expect(after.basis).toBe('measured');
    expect(after.total_used).toBe(40);
    expect(after.calibration).toBeCloseTo(40 / before.estimated);
    await s.recordUsage({ head: ids[0] as string, inputTokens: 5 });
    expect((await s.occupancy()).basis).toBe('estimated');
  });
});

describe('plain git reads the repository (disk)', () => {
  it('fsck --strict is clean; git log lists one commit per model call; git show prints an item', async () => {
    const disk = FS_KINDS.find((k) => k.name === 'disk');
    if (disk === undefined) throw new Error('no disk kind');
    const { repo, gitdir } = await disk.open();
    const { ids } = await chat(repo, stepClock());
    expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
    const log = git(gitdir, 'log', '--format=%H %s', 'ctxgit/sessions/chat-42/context');
    expect(log.trim().split('\n')).toEqual([
      `${ids[1]} chat-42 turn 2: +4 items, 0 aged, 0 cleared, 0 folded; ${(await repo.readCommit(ids[1] as string)).totalTokens} tokens (0.03% of 128000)`,
      `${ids[0]} chat-42 turn 1: +2 items, 0 aged, 0 cleared, 0 folded; ${(await repo.readCommit(ids[0] as string)).totalTokens} tokens (0.01% of 128000)`,
    ]);
    const trailers = git(gitdir, 'log', '-1', '--format=%(trailers:only)', ids[1] as string);
    expect(trailers).toMatch(/^Head-Node: [0-9a-f]{16}\nRules-Version: aging@3\+idle@1\+fold@14\+cap@3\nTotal-Tokens: \d+\n/);
    const files = git(gitdir, 'ls-tree', '-r', '--name-only', ids[1] as string).trim().split('\n');
    expect(files[files.length - 1]).toBe('meta.json');
    expect(files[0]).toMatch(/^items\/00000\/00\/000000001-[0-9a-f]{16}\.json$/);
    const shown = JSON.parse(git(gitdir, 'show', `${ids[1]}:${files[1]}`)) as { role: string; blocks: unknown[]; origin: string };
    expect(shown.role).toBe('user');
    expect(shown.blocks).toEqual([{ type: 'text', text: 'List the files.' }]);
    expect(git(gitdir, 'cat-file', '-t', shown.origin).trim()).toBe('blob');
  });
});
