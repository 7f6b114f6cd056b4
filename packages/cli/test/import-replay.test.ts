// The import's replay writes a model call's entries and its commit in one write (appendTurn); checked against the
// plain replay it replaced (every entry appended alone, a commit before each model call) on corpus transcripts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryInput, importClaudeCode, importOpenAIChat, importSweAgentTraj } from '@ctxgit/dag';
import type { Transcript } from '@ctxgit/dag';
import { openRepo } from '@ctxgit/commit';
import type { Repo, Session } from '@ctxgit/commit';
import { describe, expect, it } from 'vitest';
import { replayAll } from '../src/commands/import.js';
import { syntheticTimes } from '../src/synthetic-clock.js';
import { corpus, firstLines, SIMPLE_TRAJ, TAU } from './helpers.js';

const MODEL = 'openai:gpt-4o';
const STEP_S = 60;
const quiet = { tick: () => undefined, done: () => undefined };

/** The plain replay: each entry appended alone at its own time, a commit before each model call. Returns the checkouts it made. */
async function plainReplay(t: Transcript, s: Session, setNow: (ms: number) => void, times: readonly number[]): Promise<number> {
  const ids: string[] = [];
  const callers = new Set<string>();
  let head: string | null = null;
  let headRole: string | undefined;
  let checkouts = 0;
  for (const [i, e] of t.entries.entries()) {
    setNow(times[i] ?? 0);
    if (e.role !== 'tool' && e.predecessor !== undefined) {
      const want = ids[e.predecessor];
      if (want !== undefined && want !== head) {
        await s.checkout(want);
        checkouts++;
        head = want;
        headRole = t.entries[e.predecessor]?.role;
      }
    }
    const endsWithAssistant = headRole === 'assistant' && head !== null && !callers.has(head);
    if (e.role === 'assistant' && head !== null && !endsWithAssistant) await s.commit();
    const caller = e.caller === undefined ? undefined : ids[e.caller];
    const node = await s.append(entryInput(e, caller));
    ids.push(node.id);
    if (caller !== undefined) callers.add(caller);
    if (e.role !== 'tool') {
      head = node.id;
      headRole = e.role;
    }
  }
  const last = t.head === null ? undefined : ids[t.head];
  if (last !== undefined && (await s.head()) !== last) await s.checkout(last);
  return checkouts;
}

/** The session's head node and its context commits, newest first. */
async function replayed(repo: Repo, name: string): Promise<unknown> {
  const s = await repo.openSession(name);
  return { head: await s.head(), log: (await s.log({ limit: 10_000 })).map((c) => c.id) };
}

// function calling (tool arguments with several keys), plain-text actions, human thoughts
const sweTrajs = [
  SIMPLE_TRAJ,
  join(corpus, 'swe-agent', 'replay__marshmallow-code__marshmallow-1867__function_calling_replace__install-1__marshmallow-code__marshmallow-1867.traj'),
  join(corpus, 'swe-agent', 'ctf__crypto__eps.traj'),
  join(corpus, 'swe-agent', 'human_thought__swe-bench-HumanEvalFix-python__lcb__t-0.00__p-0.95__c-4.00__install-0__humanevalfix-python-0.traj'),
].map((f) => ({ name: f, transcript: importSweAgentTraj(JSON.parse(readFileSync(f, 'utf8')) as unknown) }));
const claude = readdirSync(join(corpus, 'claude-code'))
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => ({ name: f, transcript: importClaudeCode(readFileSync(join(corpus, 'claude-code', f), 'utf8'), { malformed: 'skip' }) }));
const tau = importOpenAIChat(firstLines(TAU, 3)).map((transcript, i) => ({ name: `tau-${i}`, transcript }));
// retries and edits: entries that branch from an earlier node (the replay checks it out first)
const at = (i: number): number => 1_700_000_000_000 + i * 1000;
const branching: Transcript = {
  format: 'openai-chat',
  entries: [
    { role: 'user', output: 'find the config', createdAt: at(0) },
    { role: 'assistant', output: '', predecessor: 0, createdAt: at(1) },
    { role: 'tool', name: 'grep', input: { pattern: 'config', path: '.' }, output: 'src/config.ts:1', caller: 1, createdAt: at(2) },
    { role: 'tool', name: 'read', input: { path: 'src/config.ts' }, output: 'export const port = 8080;', caller: 1, createdAt: at(3) },
    { role: 'assistant', output: 'It sets port 8080.', predecessor: 1, createdAt: at(4) },
    { role: 'assistant', output: 'port = 8080 (retried).', predecessor: 1, createdAt: at(5) },
    { role: 'user', output: 'and the host?', predecessor: 5, createdAt: at(6) },
    { role: 'assistant', output: 'No host is set.', predecessor: 6, createdAt: at(7) },
    { role: 'user', output: 'edited: and the timeout?', predecessor: 4, createdAt: at(8) },
    { role: 'assistant', output: 'No timeout either.', predecessor: 8, createdAt: at(9) },
  ],
  head: 7,
  skipped: {},
  malformed: [],
  stats: {},
  metadata: {},
};
const cases = [...sweTrajs, ...claude, ...tau, { name: 'branching', transcript: branching }];

describe('ctxgit import: one write per model call', () => {
  it.each([undefined, 8000])('commits what the plain replay commits, commit for commit (budget %s)', async (budget) => {
    let checkouts = 0;
    let commits = 0;
    for (const { name, transcript } of cases) {
      const times = syntheticTimes(transcript.entries, STEP_S * 1000);
      const a = await openRepo({ memory: true });
      await replayAll(a, [{ session: 's', transcript }], { model: MODEL, clockStep: STEP_S, ...(budget === undefined ? {} : { budget }) }, quiet, '');
      const b = await openRepo({ memory: true });
      let now = times[0] ?? 0;
      const request = budget === undefined ? {} : { window: budget, request: { format: 'openai-chat' as const } };
      const s = await b.createSession('s', { model: MODEL, ...request, clock: () => now });
      checkouts += await plainReplay(transcript, s, (t) => (now = t), times);
      const got = await replayed(a, 's');
      expect(got, name).toEqual(await replayed(b, 's'));
      commits += (got as { log: unknown[] }).log.length;
    }
    // the branches were replayed (checkouts), and every model call committed
    expect(checkouts).toBeGreaterThan(0);
    expect(commits).toBeGreaterThan(50);
  });
});
