// Session.appendNew takes an entry object passed again at the same place as the node it matched then (what a caller
// that keeps its converted messages, as the LangGraph checkpointer does, pays nothing for): checked against the plain
// comparison of a session object opened afresh for every call, on histories grown, retried and edited.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { HistoryEntry } from '../src/index.js';
import { FS_KINDS, stepClock } from './helpers.js';

/** One step of a caller's history: a new round, a retry of the last answer, an edit of a user message, or the same list again. */
type Step = { kind: 'round'; tools: number } | { kind: 'retry' } | { kind: 'edit'; at: number } | { kind: 'same' } | { kind: 'replaceInPlace'; at: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('round' as const), tools: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constant('retry' as const) }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('same' as const) }),
  fc.record({ kind: fc.constant('replaceInPlace' as const), at: fc.nat() }),
);

/** The history after `s`: entries kept are the same objects; a changed one is a new object (in a new list, or set into the caller's own list). */
function next(history: HistoryEntry[], s: Step, n: number): HistoryEntry[] {
  const users = history.flatMap((e, i) => (e.role === 'user' ? [i] : []));
  switch (s.kind) {
    case 'round': {
      const out = [...history, { role: 'user' as const, output: `q${n}` }];
      const caller = out.length;
      out.push({ role: 'assistant', output: `a${n}` });
      for (let t = 0; t < s.tools; t++) out.push({ role: 'tool', name: 'read', input: { path: `f${n}.${t}` }, output: `r${n}.${t}`, caller });
      return out;
    }
    case 'retry': {
      const last = history.map((e) => e.role).lastIndexOf('assistant');
      return last === -1 ? history : [...history.slice(0, last), { role: 'assistant', output: `retry${n}` }];
    }
    case 'edit': {
      if (users.length === 0) return history;
      const at = users[s.at % users.length] as number;
      return [...history.slice(0, at), { role: 'user', output: `edited${n}` }];
    }
    case 'same':
      return history;
    case 'replaceInPlace': {
      if (users.length === 0) return history;
      // the caller's own list, changed in place: a new object at that place (the session kept a copy of the list)
      const at = users[s.at % users.length] as number;
      history.length = at + 1;
      history[at] = { role: 'user', output: `replaced${n}` };
      return history;
    }
  }
}

it('property: appendNew through one session object (entries passed again not compared) gives what a session opened afresh each call gives (every entry compared)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
      const kept = (await FS_KINDS[0]!.open(stepClock())).repo;
      const plain = (await FS_KINDS[0]!.open(stepClock())).repo;
      const session = await kept.createSession('s', { model: 'openai:gpt-4o' });
      await plain.createSession('s', { model: 'openai:gpt-4o' });
      let history: HistoryEntry[] = [{ role: 'system', output: 'be brief' }];
      for (const [n, s] of steps.entries()) {
        history = next(history, s, n);
        const a = await session.appendNew(history, { commit: {} });
        const b = await (await plain.openSession('s')).appendNew(history, { commit: {} });
        expect(a.matched).toBe(b.matched);
        expect(a.nodes.map((x) => x.id)).toEqual(b.nodes.map((x) => x.id));
        expect(a.commit.id).toBe(b.commit.id);
      }
    }),
    { numRuns: 40 },
  );
});

it('an entry passed again is not compared; a changed message given as a new object is seen', async () => {
  const { repo } = await FS_KINDS[0]!.open(stepClock());
  const s = await repo.createSession('s', { model: 'openai:gpt-4o' });
  const first: HistoryEntry = { role: 'user', output: 'hi' };
  const answer: HistoryEntry = { role: 'assistant', output: 'hello' };
  await s.appendNew([first, answer]);
  expect((await s.appendNew([first, answer, { role: 'user', output: 'more' }])).matched).toBe(2);
  // the same message as a new object with other content: a sibling branch from the root
  const r = await s.appendNew([first, { role: 'assistant', output: 'hey' }]);
  expect(r.matched).toBe(1);
  expect(r.appended.map((n) => n.output)).toEqual(['hey']);
});
