import { openRepo } from '../../src/index.js';
import type { ContextCommit, Repo, Session } from '../../src/index.js';
import type { Storage } from './support.js';
import { stepClock } from './support.js';

/** A repository exercising every layout feature: tool calls, a fold (summary items), a fork, an attach and a merge. */
export interface BuiltRepo {
  readonly repo: Repo;
  readonly chat: Session;
  /** The latest commit of `chat` (a merge commit). */
  readonly last: ContextCommit;
  /** A commit of `chat` holding a summary item. */
  readonly folded: ContextCommit;
}

export async function buildRepo(storage: Storage): Promise<BuiltRepo> {
  const clock = stepClock();
  const repo = await openRepo({ ...storage.where, fs: storage.fs, clock, fsync: false });
  const chat = await repo.createSession('chat', { model: 'openai:gpt-4o', budget: 2000, clock });
  let folded: ContextCommit | undefined;
  for (let i = 0; i < 14; i++) {
    await chat.append({ role: 'user', output: `question ${i}: ${'why '.repeat(20)}` });
    const a = await chat.append({ role: 'assistant', output: `answer ${i}` });
    await chat.append({ role: 'tool', name: 'read_file', input: { path: `f${i}.txt` }, output: `line ${i}\n`.repeat(30), caller: a.id });
    await chat.append({ role: 'assistant', output: `done ${i}` });
    const c = await chat.commit();
    if (c.items.some((it) => it.state === 'summary')) folded ??= c;
  }
  if (folded === undefined) throw new Error('buildRepo: the budget did not make the rules fold');
  const alt = await chat.fork('alt');
  await alt.append({ role: 'user', output: 'alternative question' });
  await alt.append({ role: 'assistant', output: 'alternative answer' });
  await alt.commit();
  const research = await repo.createSession('research', { model: 'openai:gpt-4o', clock });
  await research.append({ role: 'user', output: 'research topic' });
  await research.commit();
  await chat.attach({ session: 'research' });
  await chat.append({ role: 'user', output: 'use the research' });
  await chat.commit();
  const last = await repo.merge({ target: 'chat', peers: ['alt'], instruction: 'combine' });
  return { repo, chat, last, folded };
}
