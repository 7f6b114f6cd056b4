// Issue 16, item 4: `ctxgit import` killed with SIGKILL at seeded writes never blocks a re-run: the same command
// resumes the killed import (the nodes it wrote are recognized byte for byte), and the result is the repository a
// clean import makes, commit for commit; after each kill `git fsck --strict` and verify are clean. The CLI runs as one
// bundled JavaScript file (packages/commit/test/reliability/bundle.ts) with an estimated-token model: a run costs a
// process start and the import, not a TypeScript loader or a rank table.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { incompleteImports, openRepo, verifyRepo } from '@ctxgit/commit';
import { readRef } from '@ctxgit/commit/git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles, CLI_BUNDLE, DIE_AT_WRITE } from '../../commit/test/reliability/bundle.js';
import { MODEL } from '../../commit/test/reliability/fixtures/crash-model.js';
import { cpuSeconds } from '../../commit/test/reliability/support.js';
import { SIMPLE_TRAJ } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCALE = Number(process.env['RELIABILITY_SCALE'] ?? '1');
const KILLS = Math.max(1, Math.round(3 * SCALE));
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeAll(buildBundles);
const cpuAtStart = cpuSeconds();

function importArgs(repo: string): string[] {
  return [CLI_BUNDLE, 'import', SIMPLE_TRAJ, '--format', 'swe-agent', '--model', MODEL, '--session', 'traj', '--repo', repo, '--json'];
}

function runImport(repo: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, importArgs(repo), { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CTXGIT_REPO: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs an import; with `dieAt`, the process kills itself with SIGKILL as its `dieAt`-th file-system write starts
 * (fixtures/die-at-write.ts). Returns how it ended and how many writes it started.
 */
async function importRun(repo: string, dieAt?: number): Promise<{ signal: NodeJS.Signals | null; code: number | null; writes: number }> {
  const counted = `${repo}.writes`;
  const env = { ...process.env, CTXGIT_REPO: '', CTXGIT_COUNT_WRITES: counted, CTXGIT_DIE_AT_WRITE: String(dieAt ?? 0), CTXGIT_WRITES_UNDER: repo, TMPDIR: dirname(repo) };
  const child = spawn(process.execPath, ['--import', DIE_AT_WRITE, ...importArgs(repo)], { cwd: ROOT, env, stdio: 'ignore' });
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ signal, code, writes: existsSync(counted) ? Number(readFileSync(counted, 'utf8')) : 0 })),
  );
}

function fsck(gitdir: string): string[] {
  const r = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--strict', '--no-dangling', '--no-progress'], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  return r.status === 0 ? [] : [`${r.stdout}${r.stderr}`];
}

describe('ctxgit import killed with SIGKILL', () => {
  it(`${KILLS} kills at seeded writes: each re-run resumes, never blocked, and ends where a clean import ends`, async () => {
    const base = mkdtempSync(join(tmpdir(), 'ctxgit-import-kill-'));
    dirs.push(base);
    const clean = join(base, 'clean.git');
    const first = await importRun(clean);
    expect(first.code).toBe(0);
    const cleanRepo = await openRepo({ dir: clean });
    const want = await readRef(cleanRepo.git, 'refs/ctxgit/sessions/traj/context');
    const counts = { kills: 0, killedMidImport: 0, reportedIncomplete: 0, killedAfterCompletion: 0, killedBeforeWriting: 0, reruns: 0, resumedEqualToClean: 0 };
    for (let k = 0; k < KILLS; k++) {
      const repo = join(base, `victim-${k}.git`);
      // seeded writes spread over the clean run's writes
      const { signal } = await importRun(repo, Math.max(1, Math.round(first.writes * ((k + 0.5) / KILLS))));
      let complete = false;
      counts.kills++;
      if (signal === 'SIGKILL' && existsSync(join(repo, 'ctxgit.json'))) {
        counts.killedMidImport++;
        expect(fsck(repo)).toEqual([]);
        const opened = await openRepo({ dir: repo });
        const report = await verifyRepo(opened);
        expect(report.issues.filter((i) => i.severity === 'error')).toEqual([]);
        // verify lists the session as an incomplete import, with the command that resumes it (the same one)
        const incomplete = report.issues.filter((i) => i.code === 'E_VERIFY_IMPORT_INCOMPLETE');
        const marked = await incompleteImports(opened);
        if (marked.length > 0) {
          counts.reportedIncomplete++;
          expect(marked.map((m) => m.session)).toEqual(['traj']);
          expect(marked[0]?.resume).toBe(`ctxgit import ${resolve(SIMPLE_TRAJ)} --format swe-agent --session traj --model ${MODEL} --clock-step 60 --repo ${repo}`);
          expect(incomplete.map((i) => [i.path, i.severity])).toEqual([['refs/ctxgit/imports/traj', 'warning']]);
          expect(incomplete[0]?.message).toContain(marked[0]?.resume ?? '-');
          if (counts.reportedIncomplete === 1) {
            // the CLI prints it
            const text = spawnSync(process.execPath, [CLI_BUNDLE, 'verify', '--repo', repo], { cwd: ROOT, encoding: 'utf8' });
            expect(text.status).toBe(0);
            expect(text.stdout).toContain(`warning E_VERIFY_IMPORT_INCOMPLETE refs/ctxgit/imports/traj: the import of session "traj" did not finish`);
            expect(text.stdout).toContain(marked[0]?.resume ?? '-');
          }
        } else {
          // no marker: the kill came before the import wrote anything of the session, or after it completed
          expect(incomplete).toEqual([]);
          const context = await readRef(opened.git, 'refs/ctxgit/sessions/traj/context').catch(() => null);
          expect(context === null || context === want).toBe(true);
          complete = context === want;
        }
      }
      if (signal === 'SIGKILL' && !existsSync(join(repo, 'ctxgit.json'))) counts.killedBeforeWriting++;
      const again = runImport(repo);
      counts.reruns++;
      // an import the kill did not interrupt (killed after it cleared its marker) is complete: the re-run says so;
      // otherwise it resumes and completes
      if (complete || signal !== 'SIGKILL') expect(again.stderr).toContain('holds this transcript already');
      else expect(again.status, again.stderr).toBe(0);
      if (complete) counts.killedAfterCompletion++;
      const done = await openRepo({ dir: repo });
      expect(await readRef(done.git, 'refs/ctxgit/sessions/traj/context')).toBe(want);
      const final = await verifyRepo(done);
      expect(final.ok).toBe(true);
      expect(final.issues.filter((i) => i.code === 'E_VERIFY_IMPORT_INCOMPLETE')).toEqual([]);
      expect(await incompleteImports(done)).toEqual([]);
      expect(fsck(repo)).toEqual([]);
      counts.resumedEqualToClean++;
    }
    mkdirSync(join(ROOT, 'packages', 'commit', 'test', 'reliability', '.counts'), { recursive: true });
    writeFileSync(join(ROOT, 'packages', 'commit', 'test', 'reliability', '.counts', 'import-kill.json'), `${JSON.stringify({ ...counts, fileCpuSeconds: Math.round((cpuSeconds() ?? 0) - (cpuAtStart ?? 0)), writtenAt: new Date().toISOString() }, null, 2)}\n`);
    expect(counts.killedMidImport).toBeGreaterThan(0);
    expect(counts.reportedIncomplete).toBeGreaterThan(0);
  }, 1_800_000 * Math.max(1, SCALE)); // a hung run still ends; RELIABILITY_SCALE multiplies the work, and the limit
});
