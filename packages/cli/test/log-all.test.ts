// `ctxgit log` names the branch it shows; --all lists the commits of every branch (after a checkout, the branch left too).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, runJson, SIMPLE_TRAJ, tempDir } from './helpers.js';

interface LogLine {
  id: string;
  headNodeId: string;
  onBranch?: boolean;
}

describe('ctxgit log --all', () => {
  it('after a checkout, log shows the new branch and says so; --all shows every commit, marking the branch', async () => {
    const repo = join(tempDir(), 'repo');
    await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'main', '--repo', repo, '--no-fsync']);
    const full = await runJson<LogLine[]>(['log', '--repo', repo]);
    expect(full.length).toBeGreaterThan(3);
    const at = full[1] as LogLine;
    await runJson(['checkout', at.headNodeId, '--repo', repo]);
    const branch = await runJson<LogLine[]>(['log', '--repo', repo]);
    expect(branch.map((e) => e.id)).toEqual(full.slice(0, 2).map((e) => e.id));
    const text = await run(['log', '--repo', repo]);
    expect(text.stdout.split('\n')[0]).toBe(`session main: the branch of head ${at.headNodeId.slice(0, 12)} (2 commits; --all for every branch)`);
    const all = await runJson<LogLine[]>(['log', '--all', '--repo', repo]);
    expect(all.map((e) => e.id)).toEqual(full.map((e) => e.id));
    expect(all.map((e) => e.onBranch)).toEqual(full.map((_, i) => i < 2));
    const allText = (await run(['log', '--all', '--repo', repo])).stdout.split('\n');
    expect(allText[0]).toBe(`session main: every branch (${full.length} commits; * = the branch of head ${at.headNodeId.slice(0, 12)})`);
    expect(allText[2]?.startsWith(`* ${full[0]?.id.slice(0, 12)}`)).toBe(true);
    expect(allText.at(-2)?.startsWith(`  ${full.at(-1)?.id.slice(0, 12)}`)).toBe(true);
  });
});
