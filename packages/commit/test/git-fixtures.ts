import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openGit } from '../src/git/open-git.js';
import type { OpenGitCommonOptions } from '../src/git/open-git.js';
import type { GitContext } from '../src/git/git-context.js';
import type { LockIdentity } from '../src/git/lock-identity.js';
import { readTree } from '../src/git/read-tree.js';

/** A way to get a fresh repository: memfs, or a real temp dir that the git binary can inspect. */
export interface FsKind {
  readonly name: 'memfs' | 'disk';
  open(opts?: OpenGitCommonOptions): Promise<GitContext>;
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

export async function tempRepoDir(): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'ctxgit-git-'));
  dirs.push(base);
  return join(base, 'repo.git');
}

let counter = 0;
/** Deterministic temp-file suffixes for tests. */
export const testSuffix = (): string => `t${(counter++).toString(16)}`;

export const FS_KINDS: readonly FsKind[] = [
  { name: 'memfs', open: (opts) => openGit({ memory: true, tempSuffix: testSuffix, ...opts }) },
  { name: 'disk', open: async (opts) => openGit({ dir: await tempRepoDir(), fsync: false, tempSuffix: testSuffix, ...opts }) },
];

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

/** Runs the git binary on a disk repository and returns stdout; throws with stderr when git fails. */
export function git(ctx: GitContext, args: readonly string[], input?: string): string {
  return execFileSync('git', ['--git-dir', ctx.gitdir, ...args], {
    encoding: 'utf8',
    input,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: GIT_ENV,
  });
}

/** `git fsck --strict` on a disk repository: exit status and the lines that are not notices. */
export function fsckStrict(ctx: GitContext): { readonly status: number | null; readonly problems: readonly string[] } {
  const run = spawnSync('git', ['--git-dir', ctx.gitdir, 'fsck', '--strict', '--no-dangling', '--no-progress'], { encoding: 'utf8', env: GIT_ENV });
  const problems = `${run.stdout}${run.stderr}`.split('\n').filter((l) => l !== '' && !l.startsWith('notice:'));
  return { status: run.status, problems };
}

export const AUTHOR = { name: 'ctxgit test', email: 'test@ctxgit.invalid', timestamp: 1_700_000_000, timezoneOffset: -60 } as const;

/**
 * Simulated processes of one host, for tests that "crash" a writer in-process and reopen the repository as a new
 * process would: each `next()` is a new process (a fresh pid), and every earlier one is dead from then on.
 */
export function simulatedProcesses(host = 'test-host'): { next(): LockIdentity } {
  let current = 1_000_000;
  return {
    next: () => {
      const pid = ++current;
      return { host, pid, isAlive: (p) => p === current };
    },
  };
}

/** Adds `tree` and every tree and blob under it to `into`. */
export async function addTreeObjects(ctx: GitContext, tree: string, into: Set<string>): Promise<void> {
  into.add(tree);
  for (const e of await readTree(ctx, tree)) {
    if (e.type === 'tree') await addTreeObjects(ctx, e.oid, into);
    else into.add(e.oid);
  }
}
