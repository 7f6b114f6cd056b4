// Runs the LangGraph example agent into a repository on disk, then reads its checkpoints with plain git.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAgent } from '../src/agent.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('examples/langgraph', () => {
  it('runs a StateGraph tool loop twice on one thread; plain git reads the checkpoints and the conversation', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ctxgit-langgraph-example-'));
    dirs.push(root);
    const dir = join(root, 'agent.git');
    const run = await runAgent(dir);
    expect(run.answers).toEqual(['There are 3 files: main.ts, package.json, README.md.', 'There are 3 files: main.ts, package.json, README.md.']);
    expect([run.session, await run.repo.listSessions()]).toEqual(['support-42', ['support-42']]);
    expect(run.request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant']);

    git(dir, 'fsck', '--strict');
    const log = git(dir, 'log', '--format=%s', 'refs/langgraph/support-42').trim().split('\n');
    expect(log.filter((s) => s.startsWith('checkpoint ')).length).toBe(run.checkpoints);
    expect(log.some((s) => s.startsWith('writes of task '))).toBe(true);
    const files = git(dir, 'ls-tree', '-r', '--name-only', 'refs/langgraph/support-42').trim().split('\n');
    const records = files.filter((f) => f.endsWith('/checkpoint.json'));
    expect(records.length).toBe(run.checkpoints);
    // each message of the channel is one blob, shared by every version of the channel that holds it
    const question = files.filter((f) => f.startsWith('ns_/channels/messages/') && f.endsWith('/000000.json'));
    expect(question.length).toBeGreaterThan(1);
    expect(new Set(question.map((f) => git(dir, 'rev-parse', `refs/langgraph/support-42:${f}`).trim())).size).toBe(1);
    expect(git(dir, 'show', `refs/langgraph/support-42:${question[0] ?? ''}`)).toContain('What is in /srv/app?');
    // ns_/latest names the greatest checkpoint id (checkpoints sit in 256 folders by a hash of their id)
    const latestId = git(dir, 'show', 'refs/langgraph/support-42:ns_/latest').trim();
    const latest = records.find((f) => f.endsWith(`/${latestId}/checkpoint.json`)) ?? '';
    const record = JSON.parse(git(dir, 'show', `refs/langgraph/support-42:${latest}`)) as { context: { session: string; commit: string }; metadata: { json: { step: number } } };
    expect(record.context).toMatchObject({ session: run.session, commit: run.commit });
    expect(git(dir, 'rev-parse', `refs/ctxgit/sessions/${run.session}/context`).trim()).toBe(run.commit);
    expect(git(dir, 'cat-file', '-t', run.commit).trim()).toBe('commit');
  });
});
