import { expect, it, vi } from 'vitest';
import type { HistoryEntry } from '../src/index.js';
import { FS_KINDS, stepClock } from './helpers.js';

// branchView counted: a session reads its branch again only when the DAG moved under what it kept
const reads = vi.hoisted(() => ({ n: 0 }));
vi.mock('@ctxgit/dag', async (original) => {
  const dag = await original<typeof import('@ctxgit/dag')>();
  return {
    ...dag,
    branchView: (...args: Parameters<typeof dag.branchView>) => {
      reads.n++;
      return dag.branchView(...args);
    },
  };
});

it('appendNew, then commit apart (or appendNew committing nothing new), then appendNew: the branch kept by the first call serves the next; another writer’s commit makes it read again', async () => {
  const { repo } = await FS_KINDS[0]!.open(stepClock());
  const s = await repo.createSession('k', { model: 'openai:gpt-4o' });
  let history: HistoryEntry[] = [{ role: 'user', output: 'q0' }];
  await s.appendNew(history);
  for (let i = 1; i <= 5; i++) {
    await s.commit();
    history = [...history, { role: 'assistant', output: `a${i}` }, { role: 'user', output: `q${i}` }];
    const before = reads.n;
    const r = await s.appendNew(history);
    expect(r.appended.length).toBe(2);
    expect(reads.n).toBe(before);
  }
  // the same history again, now with a commit: nothing to append, the head committed; the branch still serves
  const same = await s.appendNew(history, { commit: {} });
  expect(same.appended).toEqual([]);
  history = [...history, { role: 'assistant', output: 'a6' }, { role: 'user', output: 'q6' }];
  const beforeNext = reads.n;
  expect((await s.appendNew(history)).appended.length).toBe(2);
  expect(reads.n).toBe(beforeNext);
  // another session object commits the head: an index write moved the DAG under the kept branch, read again
  await (await repo.openSession('k')).commit();
  history = [...history, { role: 'assistant', output: 'a7' }, { role: 'user', output: 'q7' }];
  const before = reads.n;
  const r = await s.appendNew(history, { commit: {} });
  expect(r.appended.map((n) => n.role)).toEqual(['assistant', 'user']);
  expect(reads.n).toBe(before + 1);
  expect(r.commit.items.at(-1)?.blocks).toEqual([{ type: 'text', text: 'q7' }]);
});
