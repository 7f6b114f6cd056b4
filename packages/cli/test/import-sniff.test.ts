// `ctxgit import` sniffs the format: --format is optional, and a wrong one is refused naming the likely one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffFormat } from '../src/read-transcripts.js';
import { CLAUDE, run, runJson, SIMPLE_TRAJ, TAU, firstLines, tempDir } from './helpers.js';

describe('import format sniffing', () => {
  it('tells the three formats apart from their shape', () => {
    expect(sniffFormat(readFileSync(SIMPLE_TRAJ, 'utf8'))).toBe('swe-agent');
    expect(sniffFormat(readFileSync(CLAUDE, 'utf8'))).toBe('claude-code');
    expect(sniffFormat(firstLines(TAU, 2))).toBe('openai-chat');
    expect(sniffFormat('[{"role":"user","content":"hi"}]')).toBe('openai-chat');
    expect(sniffFormat('hello')).toBeUndefined();
  });

  it('imports without --format, as the file looks', async () => {
    const repo = join(tempDir(), 'repo');
    const out = await runJson<{ sessions: { id: string; nodes: number }[] }>(['import', CLAUDE, '--session', 'cc', '--repo', repo, '--no-fsync']);
    expect(out.sessions.map((s) => s.id)).toEqual(['cc']);
    expect(out.sessions[0]?.nodes).toBeGreaterThan(0);
  });

  it('a wrong --format is refused naming the likely format, not --skip-malformed; nothing is written', async () => {
    const repo = join(tempDir(), 'repo');
    const r = await run(['import', CLAUDE, '--format', 'swe-agent', '--repo', repo, '--no-fsync']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('it looks like claude-code; pass --format claude-code');
    expect(r.stderr).not.toContain('--skip-malformed');
    const none = await run(['import', SIMPLE_TRAJ, '--format', 'claude-code', '--repo', repo, '--no-fsync']);
    expect(none.stderr).toContain('pass --format swe-agent');
  });

  it('a file of no known shape without --format asks for one', async () => {
    const dir = tempDir();
    const file = join(dir, 'notes.txt');
    (await import('node:fs')).writeFileSync(file, 'just some notes\n');
    const r = await run(['import', file, '--repo', join(dir, 'repo'), '--no-fsync']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('pass --format') as string]);
  });
});
