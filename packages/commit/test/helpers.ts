import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll } from 'vitest';
import { openRepo } from '../src/index.js';
import type { FsLike, Repo } from '../src/index.js';

/** A deterministic clock: starts at 2023-11-14T22:13:20Z and advances one second per call. */
export function stepClock(start = 1_700_000_000_000, stepMs = 1000): () => number {
  let t = start - stepMs;
  return () => (t += stepMs);
}

/** One kind of storage a test runs on. */
export interface FsKind {
  readonly name: 'memfs' | 'disk';
  /** Opens a fresh repository (same clock sequence for both kinds). */
  open(clock?: () => number): Promise<{ repo: Repo; fs: FsLike; gitdir: string }>;
}

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test file. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctxgit-commit-'));
  temps.push(dir);
  return dir;
}

export const FS_KINDS: readonly FsKind[] = [
  {
    name: 'memfs',
    async open(clock = stepClock()) {
      const fs = createFsFromVolume(new Volume()) as unknown as FsLike;
      const repo = await openRepo({ memory: true, fs, clock, fsync: false });
      return { repo, fs, gitdir: repo.git.gitdir };
    },
  },
  {
    name: 'disk',
    async open(clock = stepClock()) {
      const dir = join(tempDir(), 'ctx.git');
      const repo = await openRepo({ dir, clock, fsync: false });
      return { repo, fs: (await import('node:fs')) as unknown as FsLike, gitdir: repo.git.gitdir };
    },
  },
];

/** Runs the real git binary on a repository directory; returns stdout. */
export function git(gitdir: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Every file under a directory of the given fs with its size, sorted: a snapshot to prove nothing was written. */
export async function snapshot(fs: FsLike, dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const name of (await fs.promises.readdir(d)).map(String).sort()) {
      const p = `${d}/${name}`;
      const st = await fs.promises.stat(p);
      if (st.isDirectory()) await walk(p);
      else out.push(`${p} ${String((await fs.promises.readFile(p)).length)}`);
    }
  };
  await walk(dir);
  return out;
}

