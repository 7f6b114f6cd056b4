// The demo replays the corpus in seconds, with aging, clearing and folding all happening, and prints git commands
// that work on the repository it wrote.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runDemo } from '../demo.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const hasGit = spawnSync('git', ['--version']).status === 0;

describe('demo', () => {
  it('replays the largest trajectory with a commit per model call; aging, clearing and folding all happen', async () => {
    const lines: string[] = [];
    const repo = join(mkdtempSync(join(tmpdir(), 'ctxgit-demo-')), 'repo.git');
    const r = await runDemo({ root, repo }, (l) => lines.push(l));
    expect(r.session).toBe('demo');
    expect(r.calls).toBeGreaterThan(10);
    expect(r.aged).toBeGreaterThan(0);
    expect(r.cleared).toBeGreaterThan(0);
    expect(r.folded).toBeGreaterThan(0);
    // a row feeding less than the full history names the rule that did it (the cap included)
    const fed = lines.filter((l) => /^ {0,3}\d+ {2}/.test(l)).map((l) => l.trim().split(/ +/));
    for (const cols of fed) {
      // columns: call, full history, fed, window, prefix, rules…, then full capped aged cleared summarized summary
      const [capped, aged, cleared, summarized] = cols.slice(-5, -1).map(Number);
      if (Number(cols[2]) < Number(cols[1])) expect((capped ?? 0) + (aged ?? 0) + (cleared ?? 0) + (summarized ?? 0)).toBeGreaterThan(0);
    }
    if (r.capped > 0) expect(lines.some((l) => / \d+ capped/.test(l))).toBe(true);
    expect(r.fedTokens).toBeLessThan(r.fullTokens);
    expect(lines[0]).toBe('ctxgit demo: replay__marshmallow-code__marshmallow-1867__function_calling_replace_from_source__marshmallow-code__marshmallow-1867.traj');
    const rows = lines.filter((l) => /^ {0,3}\d+ {2}/.test(l));
    expect(rows).toHaveLength(r.calls);
    expect(lines).toContain(`total: full history would cost ${r.fullTokens} tokens over ${r.calls} calls; ctxgit fed ${r.fedTokens} (${Math.round((100 * (r.fullTokens - r.fedTokens)) / r.fullTokens)}% less).`);
    expect(r.commands[0]).toBe(`git --git-dir ${repo} log --oneline refs/ctxgit/sessions/demo/context`);
    if (hasGit) {
      for (const c of r.commands) {
        const args = c.split(' ').slice(1);
        const g = spawnSync('git', args, { encoding: 'utf8' });
        expect(g.status, `${c}: ${g.stderr}`).toBe(0);
      }
      const log = spawnSync('git', ['--git-dir', repo, 'log', '--oneline', 'refs/ctxgit/sessions/demo/context'], { encoding: 'utf8' });
      expect(log.stdout.trimEnd().split('\n')).toHaveLength(r.calls);
      expect(spawnSync('git', ['--git-dir', repo, 'fsck', '--strict'], { encoding: 'utf8' }).status).toBe(0);
    }
  });

  it('recreates the repository on each run and replays another file with --file', async () => {
    const repo = join(mkdtempSync(join(tmpdir(), 'ctxgit-demo-')), 'repo.git');
    const file = join(root, '..', 'shared', 'corpus', 'claude-code', 'todowrite_examples.jsonl');
    const a = await runDemo({ root, repo, file }, () => undefined);
    const b = await runDemo({ root, repo, file }, () => undefined);
    expect(b).toEqual(a);
    expect(a.calls).toBe(3);
  });

  it('runs as `npm run demo` does (tsx, @ctxgit/source condition)', () => {
    const repo = join(mkdtempSync(join(tmpdir(), 'ctxgit-demo-')), 'repo.git');
    const r = spawnSync(process.execPath, ['--conditions=@ctxgit/source', '--import', 'tsx', 'examples/demo/main.ts', '--repo', repo], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('The same timeline with plain git');
    expect(existsSync(join(repo, 'ctxgit.json'))).toBe(true);
    const bad = spawnSync(process.execPath, ['--conditions=@ctxgit/source', '--import', 'tsx', 'examples/demo/main.ts', '--file', 'nope.traj', '--repo', repo], { cwd: root, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^demo: ctxgit: cannot read .*nope\.traj: no such file \[E_CLI_READ_FILE\]\n$/);
  });
});
