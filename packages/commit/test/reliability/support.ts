import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DagError } from '@ctxgit/dag';
import { Volume, createFsFromVolume } from 'memfs';
import { CommitError } from '../../src/index.js';
import type { FsLike, Repo } from '../../src/index.js';
import type { LockIdentity } from '../../src/git/index.js';

/** Where each reliability test file writes its counts (git-ignored); docs/reliability.md is generated from them. */
export const COUNTS_DIR = fileURLToPath(new URL('./.counts/', import.meta.url));

/**
 * CPU seconds (user + system) this process used, and the processes it started and waited for (git, writers, the
 * CLI: Linux's cutime + cstime in /proc/self/stat, 100 ticks a second); null where /proc is missing.
 */
export function cpuSeconds(): number | null {
  const children = childCpuSeconds();
  const own = process.cpuUsage();
  return children === null ? null : (own.user + own.system) / 1e6 + children;
}

/** The part of {@link cpuSeconds} the processes this one started and waited for used; null where /proc is missing. */
export function childCpuSeconds(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks / 100 : null;
  } catch {
    return null;
  }
}

/** CPU seconds when the test file began (support.ts loads with it): a file's counts say what the file cost. */
const CPU_AT_START = cpuSeconds();
const CHILD_CPU_AT_START = childCpuSeconds();

/** Writes the counts of one test file, with what it cost: CPU seconds (its own process and its children) and wall seconds. */
export function writeCounts(name: string, counts: Record<string, number | string>): void {
  mkdirSync(COUNTS_DIR, { recursive: true });
  const cpu = cpuSeconds();
  const children = childCpuSeconds();
  const cost = cpu === null || CPU_AT_START === null || children === null || CHILD_CPU_AT_START === null ? {} : { fileCpuSeconds: Math.round(cpu - CPU_AT_START), childProcessCpuSeconds: Math.round(children - CHILD_CPU_AT_START) };
  writeFileSync(join(COUNTS_DIR, `${name}.json`), `${JSON.stringify({ ...counts, ...cost, writtenAt: new Date().toISOString() }, null, 2)}\n`);
}

const temps: string[] = [];
/** Removes the temp dirs made by {@link tempDir}; call it from a test file's afterAll. */
export function cleanTemps(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temp directory, removed after the file. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctxgit-rel-'));
  temps.push(dir);
  return dir;
}

/** A storage kind: a fresh memfs volume, or node's fs on a temp dir. */
export interface Storage {
  readonly name: 'memfs' | 'disk';
  readonly fs: FsLike;
  /** Options for openRepo: `{ memory: true }` or `{ dir }`. */
  readonly where: { readonly memory: true } | { readonly dir: string };
  readonly gitdir: string;
}

export function memStorage(): Storage {
  return { name: 'memfs', fs: createFsFromVolume(new Volume()) as unknown as FsLike, where: { memory: true }, gitdir: '/ctxgit.git' };
}

export function diskStorage(): Storage {
  const dir = join(tempDir(), 'ctx.git');
  return { name: 'disk', fs: nodeFs as unknown as FsLike, where: { dir }, gitdir: dir };
}

export const STORAGES: readonly (() => Storage)[] = [memStorage, diskStorage];

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

/** `git fsck --strict` problems (lines that are not notices); [] when clean. */
export function fsck(gitdir: string): string[] {
  const run = spawnSync('git', ['--git-dir', gitdir, 'fsck', '--strict', '--no-dangling', '--no-progress'], { encoding: 'utf8', env: GIT_ENV });
  const lines = `${run.stdout}${run.stderr}`.split('\n').filter((l) => l !== '' && !l.startsWith('notice:'));
  return run.status === 0 ? lines : [`exit ${String(run.status)}`, ...lines];
}

/** Every file under `dir` with the sha1 of its bytes, sorted: equal snapshots mean nothing was written. */
export async function fileSnapshot(fs: FsLike, dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let names: string[];
    try {
      names = (await fs.promises.readdir(d)).map(String).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const p = `${d}/${name}`;
      const st = await fs.promises.stat(p);
      if (st.isDirectory()) await walk(p);
      else out.push(`${p} ${createHash('sha1').update(await fs.promises.readFile(p)).digest('hex')}`);
    }
  };
  await walk(dir);
  return out;
}

/**
 * True for an error of ctxgit: an Error subclass with a stable `E_*` code and a `data` payload (CommitError, DagError,
 * and the other packages' error classes); false for a raw errno (`code: 'ENOSPC'`), a TypeError or a RangeError.
 */
export function isTyped(err: unknown): err is { code: string } {
  if (err instanceof CommitError || err instanceof DagError) return err.code.startsWith('E_');
  const e = err as { code?: unknown; data?: unknown };
  return err instanceof Error && err.constructor !== Error && typeof e.code === 'string' && /^E_[A-Z0-9_]+$/u.test(e.code) && typeof e.data === 'object' && e.data !== null;
}

/** A small seeded PRNG (mulberry32): same seed, same sequence. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deterministic clock advancing one second per call. */
export function stepClock(start = 1_700_000_000_000): () => number {
  let t = start - 1000;
  return () => (t += 1000);
}

let ghosts = 0;
/**
 * The identity of a simulated writer process of this host for an in-process "crash": its pid (above Linux's pid_max)
 * names no running process, so once the writer stops, the next writer takes its locks over as a dead process's, as
 * after a real SIGKILL. While it runs, its own locks are its own (same pid).
 */
export function ghostIdentity(): LockIdentity {
  const pid = 2 ** 30 + ++ghosts;
  return {
    host: hostname(),
    pid,
    isAlive: (p) => {
      try {
        process.kill(p, 0);
        return true;
      } catch (err) {
        return (err as { code?: unknown }).code === 'EPERM';
      }
    },
  };
}

/** Node ids on a session's chain (following predecessors from its head), oldest first. */
export async function chainOf(repo: Repo, session: string): Promise<string[]> {
  const chain: string[] = [];
  for (let id = (await repo.store.getSession(session))?.head ?? undefined; id !== undefined; ) {
    chain.unshift(id);
    id = (await repo.store.getNode(id))?.predecessor;
  }
  return chain;
}

/** A lock record as a writer of `pid` on this host writes it. */
export function deadLock(pid: number, nonce = 'deadbeefdeadbeef'): string {
  return `${JSON.stringify({ ctxgitLock: 1, host: hostname(), pid, nonce, time: Date.now() })}\n`;
}

/** The pid of a process that ran and exited: a real dead writer's. */
export function exitedPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(run.stdout);
}
