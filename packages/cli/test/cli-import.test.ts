// The import contract of issue 7, in-process: session naming, --budget, default model, clock, JSON shapes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importClaudeCode, importSweAgentTraj } from '@ctxgit/dag';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMPORT_MODEL, SYNTHETIC_EPOCH_MS } from '../src/index.js';
import { CLAUDE, firstLines, run, runJson, SIMPLE_TRAJ, TAU, tempDir } from './helpers.js';

interface Imported {
  sessions: { id: string; nodes: number; commits: number }[];
}
interface Listed {
  sessions: { id: string; head: string | null; model: string; window: number; commits: number }[];
}
interface LogLine {
  id: string;
  parentIds: string[];
  headNodeId: string;
  totalTokens: number;
  states: Record<string, number>;
}

describe('ctxgit import', () => {
  it('imports a SWE-agent trajectory as one session named after the file, with a commit before each model call', async () => {
    const repo = join(tempDir(), 'repo');
    const out = await runJson<Imported>(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', repo, '--no-fsync']);
    expect(out).toEqual({ sessions: [{ id: 'function_calling_simple', nodes: 12, commits: 5 }] });
    const t = importSweAgentTraj(readFileSync(SIMPLE_TRAJ, 'utf8'));
    expect(out.sessions[0]?.nodes).toBe(t.entries.length);
    expect(out.sessions[0]?.commits).toBe(t.entries.filter((e, i) => e.role === 'assistant' && i > 0).length);
  });

  it('names the sessions of a multi-conversation file <stem>-<index>, or <--session>-<index>', async () => {
    const dir = tempDir();
    const file = join(dir, 'airline.jsonl');
    writeFileSync(file, firstLines(TAU, 3));
    const repo = join(dir, 'repo');
    const a = await runJson<Imported>(['import', file, '--format', 'openai-chat', '--repo', repo, '--no-fsync']);
    expect(a).toEqual({
      sessions: [
        { id: 'airline-0', nodes: 32, commits: 15 },
        { id: 'airline-1', nodes: 12, commits: 5 },
        { id: 'airline-2', nodes: 24, commits: 11 },
      ],
    });
    const b = await runJson<Imported>(['import', file, '--format', 'openai-chat', '--repo', repo, '--session', 'tau', '--no-fsync']);
    expect(b.sessions.map((s) => s.id)).toEqual(['tau-0', 'tau-1', 'tau-2']);
    const listed = await runJson<Listed>(['sessions', '--repo', repo]);
    expect(listed.sessions.map((s) => s.id)).toEqual(['airline-0', 'airline-1', 'airline-2', 'tau-0', 'tau-1', 'tau-2']);
  });

  it('uses openai:gpt-4o and its window by default; --budget sets the window; --model another model', async () => {
    const repo = join(tempDir(), 'repo');
    await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', repo, '--no-fsync']);
    await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', repo, '--session', 'small', '--budget', '5000', '--no-fsync']);
    await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', repo, '--session', 'claude', '--model', 'anthropic:claude-sonnet-4-5', '--no-fsync']);
    const { sessions } = await runJson<Listed>(['sessions', '--repo', repo]);
    expect(DEFAULT_IMPORT_MODEL).toBe('openai:gpt-4o');
    expect(sessions.map((s) => [s.id, s.model, s.window, s.commits])).toEqual([
      ['claude', 'anthropic:claude-sonnet-4-5', 200_000, 5],
      ['function_calling_simple', 'openai:gpt-4o', 128_000, 5],
      ['small', 'openai:gpt-4o', 5000, 5],
    ]);
    for (const s of sessions) expect(s.head).toMatch(/^[0-9a-f]{16}$/);
  });

  it('drives the clock from transcript timestamps', async () => {
    const repo = join(tempDir(), 'repo');
    await runJson(['import', CLAUDE, '--format', 'claude-code', '--repo', repo, '--session', 'cc', '--no-fsync']);
    const t = importClaudeCode(readFileSync(CLAUDE, 'utf8'));
    // A model call: an assistant entry after a user or tool entry (consecutive assistant lines continue one reply).
    const callTimes = t.entries.filter((e, i) => e.role === 'assistant' && i > 0 && t.entries[i - 1]?.role !== 'assistant').map((e) => e.createdAt);
    expect(callTimes).toHaveLength(5);
    expect(callTimes.every((x) => typeof x === 'number')).toBe(true);
    const log = await runJson<LogLine[]>(['log', '--repo', repo, '--session', 'cc']);
    const created = [];
    for (const c of log) created.push((await runJson<{ createdAt: number }>(['show', c.id, '--repo', repo])).createdAt);
    expect(created).toEqual(callTimes);
  });

  it('uses the documented synthetic clock for a transcript without timestamps: 2024-01-01, then --clock-step seconds per entry', async () => {
    const repo = join(tempDir(), 'repo');
    await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', repo, '--session', 'a', '--no-fsync']);
    await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', repo, '--session', 'b', '--clock-step', '600', '--no-fsync']);
    const t = importSweAgentTraj(readFileSync(SIMPLE_TRAJ, 'utf8'));
    const calls = t.entries.flatMap((e, i) => (e.role === 'assistant' && i > 0 ? [i] : []));
    expect(SYNTHETIC_EPOCH_MS).toBe(Date.parse('2024-01-01T00:00:00Z'));
    for (const [session, step] of [['a', 60_000], ['b', 600_000]] as const) {
      const log = await runJson<LogLine[]>(['log', '--repo', repo, '--session', session]);
      const created = [];
      for (const c of log) created.push((await runJson<{ createdAt: number }>(['show', c.id, '--repo', repo])).createdAt);
      expect(created).toEqual(calls.map((i) => SYNTHETIC_EPOCH_MS + i * step));
    }
  });

  it('skips malformed lines with --skip-malformed and says how many on stderr', async () => {
    const dir = tempDir();
    const file = join(dir, 'broken.jsonl');
    writeFileSync(file, `${firstLines(CLAUDE, 4)}not json\n`);
    const repo = join(dir, 'repo');
    const failed = await run(['import', file, '--format', 'claude-code', '--repo', repo]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^ctxgit: .*broken.jsonl: claude-code transcript, line 5: .*pass --skip-malformed.*\[E_DAG_MALFORMED_TRANSCRIPT\]\n$/);
    const ok = await run(['import', file, '--format', 'claude-code', '--repo', repo, '--skip-malformed', '--no-fsync', '--json']);
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('ctxgit: broken: skipped 1 malformed (first: not JSON (Unexpected token \'o\', "not json" is not valid JSON))\n');
    expect(JSON.parse(ok.stdout)).toEqual({ sessions: [{ id: 'broken', nodes: 5, commits: 2 }] });
  });

  it('shows a progress bar on stderr only when it is a terminal and the import is long', async () => {
    const dir = tempDir();
    const file = join(dir, 'airline.jsonl');
    writeFileSync(file, firstLines(TAU, 3));
    const tty = await run(['import', file, '--format', 'openai-chat', '--repo', join(dir, 'a'), '--no-fsync'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('] 68/68 airline-2'); // one replay (in memory), then one pack: a step per entry
    expect(tty.stderr.endsWith('\r\u001b[K')).toBe(true);
    const pipe = await run(['import', file, '--format', 'openai-chat', '--repo', join(dir, 'b'), '--no-fsync']);
    expect(pipe.stderr).toBe('');
    const short = await run(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', join(dir, 'c'), '--no-fsync'], { tty: true });
    expect(short.stderr).toBe('');
  });

  it('prints a readable table without --json', async () => {
    const r = await run(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', join(tempDir(), 'repo'), '--no-fsync']);
    expect(r).toEqual({ code: 0, stderr: '', stdout: 'session                  nodes  commits\nfunction_calling_simple  12     5\n' });
  });
});
