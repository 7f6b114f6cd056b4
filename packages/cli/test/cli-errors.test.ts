// Every error path in-process: a non-zero exit, one line on stderr with the error code, nothing on stdout, nothing written.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorCases } from './error-cases.js';
import type { ErrorFixture } from './error-cases.js';
import { run, runJson, SIMPLE_TRAJ, snapshot, tempDir } from './helpers.js';

let fixture: ErrorFixture;

beforeAll(async () => {
  const dir = tempDir();
  const repo = join(dir, 'repo');
  await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'main', '--repo', repo, '--no-fsync']);
  const log = await runJson<{ id: string; headNodeId: string }[]>(['log', '--repo', repo]);
  await runJson(['fork', 'alt', '--session', 'main', '--repo', repo]);
  fixture = { dir, repo, commit: log[0]?.id ?? '', node: log[0]?.headNodeId ?? '' };
});

describe('error paths (in-process)', () => {
  it('covers every command', () => {
    const commands = new Set(errorCases(fixture).map((c) => c.args[0]));
    for (const c of ['import', 'log', 'sessions', 'show', 'render', 'diff', 'stats', 'export', 'checkout', 'fork', 'merge', 'expand', 'verify']) {
      expect(commands.has(c), c).toBe(true);
    }
  });

  it('each fails with one line naming its code and writes nothing', async () => {
    for (const c of errorCases(fixture)) {
      const before = c.untouched.map(snapshot);
      const r = await run(c.args);
      expect({ name: c.name, exit: r.code, stdout: r.stdout }).toEqual({ name: c.name, exit: c.exit, stdout: '' });
      expect(r.stderr, c.name).toMatch(new RegExp(`^ctxgit: [^\\n]+ \\[${c.code}\\]\\n$`));
      expect(c.untouched.map(snapshot), c.name).toEqual(before);
    }
  });

  it('verify fails with E_CLI_VERIFY_FAILED on a damaged repository', async () => {
    const { rmSync, readdirSync } = await import('node:fs');
    const repo = join(tempDir(), 'repo');
    await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--repo', repo, '--no-fsync']);
    const log = await runJson<{ id: string }[]>(['log', '--repo', repo]);
    const last = log.at(-1)?.id ?? '';
    // the import ends packed: the pack goes, and with it the oldest commit (and every other object)
    const packs = join(repo, 'objects', 'pack');
    for (const f of readdirSync(packs)) rmSync(join(packs, f));
    const r = await run(['verify', '--repo', repo, '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ctxgit: \d+ errors found, first E_VERIFY_\w+ at .+ \[E_CLI_VERIFY_FAILED\]\n$/);
    const report = JSON.parse(r.stdout) as { ok: boolean; issues: { severity: string; message: string; path: string }[] };
    expect(report.ok).toBe(false);
    expect(report.issues.some((i) => i.severity === 'error' && `${i.path} ${i.message}`.includes(last.slice(0, 12)))).toBe(true);
  });
});
