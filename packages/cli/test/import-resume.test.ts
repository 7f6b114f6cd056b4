// Issue 16, item 4: `ctxgit import` killed with SIGKILL at seeded moments never blocks a re-run: the same command
// resumes the killed import (the nodes it wrote are recognized byte for byte), and the result is the repository a
// clean import makes, commit for commit; after each kill `git fsck --strict` and verify are clean.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openRepo, readRef, verifyRepo } from '@ctxgit/commit';
import { afterAll, describe, expect, it } from 'vitest';
import { SIMPLE_TRAJ } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'packages', 'cli', 'src', 'bin.ts');
const SCALE = Number(process.env['RELIABILITY_SCALE'] ?? '1');
const KILLS = Math.max(1, Math.round(3 * SCALE));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function importArgs(repo: string): string[] {
  return ['--conditions=@ctxgit/source', '--import', 'tsx', BIN, 'import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'traj', '--repo', repo, '--json'];
}

function runImport(repo: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, importArgs(repo), { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CTXGIT_REPO: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts an import and kills it `afterMs` after its first write to the repository on disk (a session ref appears). */
async function killedImport(repo: string, afterMs: number): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, importArgs(repo), { cwd: ROOT, env: { ...process.env, CTXGIT_REPO: '' }, stdio: 'ignore' });
  let timer: NodeJS.Timeout | undefined;
  const poll = setInterval(() => {
    if (timer === undefined && existsSync(join(repo, 'refs', 'ctxgit', 'sessions'))) timer = setTimeout(() => child.kill('SIGKILL'), afterMs);
  }, 5);
  return new Promise((resolve) =>
    child.on('exit', (_code, signal) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve(signal);
    }),
  );
}

function fsck(gitdir: string): string[] {
  const r = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--strict', '--no-dangling', '--no-progress'], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  return r.status === 0 ? [] : [`${r.stdout}${r.stderr}`];
}

describe('ctxgit import killed with SIGKILL', () => {
  it(`${KILLS} kills at seeded moments: each re-run resumes, never blocked, and ends where a clean import ends`, async () => {
    const base = mkdtempSync(join(tmpdir(), 'ctxgit-import-kill-'));
    dirs.push(base);
    const clean = join(base, 'clean.git');
    const started = Date.now();
    expect(runImport(clean).status).toBe(0);
    const took = Date.now() - started;
    const cleanRepo = await openRepo({ dir: clean });
    const want = await readRef(cleanRepo.git, 'refs/ctxgit/sessions/traj/context');
    let killed = 0;
    const counts = { kills: 0, killedMidImport: 0, killedBeforeWriting: 0, reruns: 0, resumedEqualToClean: 0 };
    for (let k = 0; k < KILLS; k++) {
      const repo = join(base, `victim-${k}.git`);
      // seeded moments spread over the writing part of the run
      const signal = await killedImport(repo, Math.round((took / 8) * ((k + 0.5) / KILLS)));
      counts.kills++;
      if (signal === 'SIGKILL') killed++;
      if (signal === 'SIGKILL' && existsSync(join(repo, 'ctxgit.json'))) {
        counts.killedMidImport++;
        expect(fsck(repo)).toEqual([]);
        const opened = await openRepo({ dir: repo });
        expect((await verifyRepo(opened)).issues.filter((i) => i.severity === 'error')).toEqual([]);
      }
      if (signal === 'SIGKILL' && !existsSync(join(repo, 'ctxgit.json'))) counts.killedBeforeWriting++;
      const again = runImport(repo);
      counts.reruns++;
      // an import the kill did not interrupt is complete: the re-run says so; otherwise it resumes and completes
      if (signal === 'SIGKILL') expect(again.status, again.stderr).toBe(0);
      const done = await openRepo({ dir: repo });
      expect(await readRef(done.git, 'refs/ctxgit/sessions/traj/context')).toBe(want);
      expect((await verifyRepo(done)).ok).toBe(true);
      expect(fsck(repo)).toEqual([]);
      counts.resumedEqualToClean++;
    }
    mkdirSync(join(ROOT, 'packages', 'commit', 'test', 'reliability', '.counts'), { recursive: true });
    writeFileSync(join(ROOT, 'packages', 'commit', 'test', 'reliability', '.counts', 'import-kill.json'), `${JSON.stringify({ ...counts, writtenAt: new Date().toISOString() }, null, 2)}\n`);
    expect(counts.killedMidImport).toBeGreaterThan(0);
  }, 600_000);
});
