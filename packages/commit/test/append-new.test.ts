import { branchView } from '@ctxgit/dag';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBlob, readRef, writeBlob } from '../src/git/index.js';
import { HistoryDivergedError } from '../src/index.js';
import type { HistoryEntry } from '../src/index.js';
import { FS_KINDS, stepClock } from './helpers.js';

const q: HistoryEntry = { role: 'user', output: 'list files' };
const a: HistoryEntry = { role: 'assistant', output: '' };
const t: HistoryEntry = { role: 'tool', name: 'ls', input: { path: '.' }, output: 'a.txt', caller: 1, metadata: { callId: 'c1' } };
const done: HistoryEntry = { role: 'assistant', output: 'one file: a.txt' };

describe.each(FS_KINDS)('Session.appendNew on $name', (kind) => {
  it('appends only what the branch does not hold, tool calls under their assistant', async () => {
    const { repo } = await kind.open(stepClock());
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    const first = await s.appendNew([q, a, t]);
    expect([first.matched, first.appended.map((n) => n.role)]).toEqual([0, ['user', 'assistant', 'tool']]);
    expect(first.appended[2]?.caller).toBe(first.appended[1]?.id);
    const again = await s.appendNew([q, a, t, done]);
    expect([again.matched, again.appended.map((n) => n.output)]).toEqual([3, ['one file: a.txt']]);
    expect(await s.head()).toBe(again.appended[0]?.id);
    const same = await s.appendNew([q, a, t, done]);
    expect([same.matched, same.appended.length]).toEqual([4, 0]);
  });

  it('branches off where the history leaves the branch, and refuses an unrelated history', async () => {
    const { repo } = await kind.open(stepClock());
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    const { nodes } = await s.appendNew([q, { role: 'assistant', output: 'first answer' }]);
    const retried = await s.appendNew([q, { role: 'assistant', output: 'second answer' }]);
    expect(retried.matched).toBe(1);
    expect(retried.appended[0]?.predecessor).toBe(nodes[0]?.id);
    expect((await s.siblings(retried.appended[0]?.id ?? '')).total).toBe(2);
    const shorter = await s.appendNew([q]);
    expect([shorter.matched, shorter.appended.length, await s.head()]).toEqual([1, 0, nodes[0]?.id]);
    await expect(s.appendNew([{ role: 'user', output: 'other' }])).rejects.toThrow(HistoryDivergedError);
    await expect(s.appendNew([{ role: 'user', output: 'other' }])).rejects.toMatchObject({ code: 'E_COMMIT_HISTORY_DIVERGED', data: { index: 0 } });
  });

  it('continues the branch from a history trimmed at the front (a sliding window)', async () => {
    const { repo } = await kind.open(stepClock());
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    await s.appendNew([q, a, t, done]);
    const next: HistoryEntry = { role: 'user', output: 'and hidden files?' };
    const window = await s.appendNew([a, { ...t, caller: 0 }, done, next]);
    expect([window.matched, window.appended.map((n) => n.output)]).toEqual([3, ['and hidden files?']]);
    const c = await s.commit();
    expect(c.items.map((i) => i.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
  });
});

describe.each(FS_KINDS)('Session.appendNew beforeRefs on $name', (kind) => {
  it("runs with the new commit before any ref moves: its objects are the turn's, readable once the call resolves", async () => {
    const { repo } = await kind.open(stepClock());
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    await s.appendNew([q], { commit: {} });
    const refs = async () => [await s.head(), await readRef(repo.git, 'refs/ctxgit/sessions/chat/context')];
    const before = await refs();
    const seen: { commit: string; refs: unknown[]; blob: string }[] = [];
    const { commit } = await s.appendNew([q, done], {
      commit: {},
      beforeRefs: async (c) => {
        seen.push({ commit: c.id, refs: await refs(), blob: await writeBlob(repo.git, `record of ${c.id}\n`) });
      },
    });
    expect(seen).toEqual([{ commit: commit.id, refs: before, blob: expect.any(String) }]);
    expect(new TextDecoder().decode(await readBlob(repo.git, seen[0]?.blob ?? ''))).toBe(`record of ${commit.id}\n`);
    // nothing appended: the head's commit is returned, the hook not called
    const again = await s.appendNew([q, done], { commit: {}, beforeRefs: async () => void seen.push({ commit: '', refs: [], blob: '' }) });
    expect([again.commit.id, seen.length]).toEqual([commit.id, 1]);
  });

  it('moves nothing when the hook rejects, and refuses a hook without commit or that is not a function, before writing', async () => {
    const { repo } = await kind.open(stepClock());
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    await s.appendNew([q], { commit: {} });
    const head = await s.head();
    await expect(s.appendNew([q, done], { commit: {}, beforeRefs: async () => Promise.reject(new Error('record failed')) })).rejects.toThrow('record failed');
    expect(await s.head()).toBe(head);
    await expect(s.appendNew([q, done], { beforeRefs: async () => undefined })).rejects.toMatchObject({ code: 'E_COMMIT_INVALID_OPTION', data: { option: 'opts.beforeRefs' } });
    await expect(s.appendNew([q, done], { commit: {}, beforeRefs: 'later' as never })).rejects.toMatchObject({ code: 'E_COMMIT_INVALID_OPTION', data: { option: 'opts.beforeRefs' } });
    expect(await s.head()).toBe(head);
    expect((await s.appendNew([q, done], { commit: {} })).appended).toHaveLength(1);
  });
});

describe('Session.appendNew properties', () => {
  const message = fc.record({ role: fc.constantFrom('user' as const, 'assistant' as const), output: fc.string({ maxLength: 8 }) });
  it('a history given in growing prefixes is stored once, in order: each call appends exactly what is new', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 4 }), async (history, cuts) => {
        const { repo } = await FS_KINDS[0]!.open(stepClock());
        const s = await repo.createSession('p', { model: 'openai:gpt-4o' });
        const ends = [...new Set([...cuts.map((c) => 1 + (c % history.length)), history.length])].sort((x, y) => x - y);
        let before = 0;
        for (const end of ends) {
          const r = await s.appendNew(history.slice(0, end));
          expect([r.matched, r.appended.length]).toEqual([before, end - before]);
          before = end;
        }
        const head = await s.head();
        const branch = head === null ? [] : await branchView(repo.store, head);
        expect(branch.map((n) => ({ role: n.role, output: n.output }))).toEqual(history);
      }),
      { numRuns: 20 },
    );
  });

  // What a Session keeps between calls (the branch of its last call, while the DAG stays as that call left it) is
  // checked against a session opened afresh for every call, with another writer appending in between.
  const step = fc.oneof(
    fc.record({ kind: fc.constant('extend' as const), add: fc.array(message, { minLength: 1, maxLength: 3 }), tool: fc.boolean() }),
    fc.record({ kind: fc.constant('trim' as const), drop: fc.nat({ max: 3 }) }),
    fc.record({ kind: fc.constant('edit' as const), back: fc.nat({ max: 4 }), output: fc.string({ maxLength: 4 }) }),
    fc.record({ kind: fc.constant('other' as const), output: fc.string({ maxLength: 4 }) }),
    fc.record({ kind: fc.constant('otherTool' as const), output: fc.string({ maxLength: 4 }) }),
    fc.record({ kind: fc.constant('otherCommit' as const) }),
  );
  it('a session kept open matches each history as a session opened afresh does, another writer appending or committing in between, commits in the call or after it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const results: unknown[][] = [];
        for (const keep of [true, false]) {
          const { repo } = await FS_KINDS[0]!.open(stepClock());
          const kept = await repo.createSession('p', { model: 'openai:gpt-4o' });
          const other = await repo.openSession('p');
          const out: unknown[] = [];
          let history: HistoryEntry[] = [{ role: 'user', output: 'start' }];
          const call = async (h: HistoryEntry[]): Promise<void> => {
            const s = keep ? kept : await repo.openSession('p');
            try {
              // every other call commits apart (appendNew, then commit): the kept branch carries over that commit
              const r = h.length % 2 === 0 ? await s.appendNew(h, { commit: {} }) : { ...(await s.appendNew(h)), commit: await s.commit() };
              out.push([r.matched, r.appended.map((n) => n.id), r.commit.id]);
            } catch (err) {
              out.push((err as { code?: string }).code);
            }
          };
          await call(history);
          for (const st of steps) {
            if (st.kind === 'extend') {
              history = [...history, ...st.add];
              // an assistant's tool call and its result
              if (st.tool) history.push({ role: 'assistant', output: '' }, { role: 'tool', name: 'ls', input: { path: '.' }, output: `r${history.length}`, caller: history.length });
            } else if (st.kind === 'trim') {
              // a sliding window: drop leading messages, never a tool result's caller
              let k = Math.min(st.drop, history.length - 1);
              while (k > 0 && history.slice(k).some((e) => e.caller !== undefined && e.caller < k)) k--;
              history = history.slice(k).map((e) => (e.caller === undefined ? e : { ...e, caller: e.caller - k }));
            } else if (st.kind === 'edit') {
              const at = Math.max(1, history.length - 1 - st.back);
              history = [...history.slice(0, at).filter((e) => e.caller === undefined || e.caller < at), { role: 'user', output: `edited ${st.output}` }];
            } else if (st.kind === 'otherCommit') {
              // another writer commits the head: an index write moves the DAG ref under the kept branch
              await other.commit().catch(() => undefined);
            } else if (st.kind === 'otherTool') {
              // another writer answers a tool call of the head assistant: the head stays, the branch grows
              if (history.at(-1)?.role !== 'assistant') history.push({ role: 'assistant', output: '' });
              await call(history);
              const head = (await other.head()) as string;
              // the history may have been refused (diverged): then the head is no assistant, and nothing is answered
              if ((await repo.store.forSession('p').getNode(head))?.role !== 'assistant') continue;
              const n = history.length;
              await other.append({ role: 'tool', name: 'cat', input: { n }, output: `other ${st.output}`, caller: head });
              history = [...history, { role: 'tool', name: 'cat', input: { n }, output: `other ${st.output}`, caller: n - 1 }];
            } else {
              // another writer appends a message the next history then holds
              await other.append({ role: 'user', output: `other ${st.output}` });
              history = [...history, { role: 'user', output: `other ${st.output}` }];
            }
            await call(history);
          }
          results.push(out);
        }
        expect(results[0]).toEqual(results[1]);
      }),
      { numRuns: 40 },
    );
  });
});
