/**
 * Git object-writing benchmark: the objects of a typical session of 100 / 1,000 / 10,000 turns (item blobs under
 * sharded trees, a metadata blob and one commit per turn) written with ctxgit's primitives (memfs, disk, disk with
 * fsync), each turn one batch (`inBatch`: one pack per turn, rolled up by automatic maintenance, as a session's turn
 * is written) and, in the same run, the same content streamed into `git fast-import` in a fresh bare repository. Both
 * sides must end on the same commit id, which proves they wrote the same objects.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/git.ts [--quick]`
 */
import { spawn, spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { FsLike } from '@ctxgit/commit';
import { compareAndSwapRef, inBatch, openGit, updateTree, writeBlob, writeCommit, type TreeEdit } from '@ctxgit/commit/git';
import { fileSizes, totalBytes } from './file-sizes.js';
import { objectCount } from './git-object-count.js';
import { median, p95 } from './stats.js';

/** How ctxgit's side was stored. */
export type GitBenchMode = 'memfs' | 'disk' | 'disk+fsync';

/** ctxgit's figures for one session size and storage mode. */
export interface GitBenchOursRow {
  readonly turns: number;
  readonly mode: GitBenchMode;
  /** Objects written, all turns (counted in fast-import's repository, which ends on the same commit). */
  readonly objects: number;
  readonly objectsPerTurn: number;
  readonly totalMs: number;
  readonly objectsPerSec: number;
  /** One turn: write its blobs, update the sharded tree, write the commit, compare-and-swap the ref. */
  readonly turnMedianMs: number;
  readonly turnP95Ms: number;
  /** Median of the last 100 turns over the median of the first 100: ≈1 when a turn does not grow with the session. */
  readonly lateOverEarly: number;
  /** Bytes of the files under `objects/` (packs, as automatic maintenance left them). */
  readonly repoBytes: number;
  readonly repoBytesPerTurn: number;
}

/** `git fast-import`'s figures for the same content. */
export interface GitBenchNativeRow {
  readonly turns: number;
  readonly objects: number;
  /** Process start to exit, stream prepared beforehand. */
  readonly totalMs: number;
  readonly objectsPerSec: number;
  /** `totalMs / turns` (fast-import takes one stream; there is no per-turn time). */
  readonly turnMeanMs: number;
  /** Bytes of the files under `objects/` (one delta-compressed pack). */
  readonly repoBytes: number;
  /** Final commit id equal to ctxgit's: both wrote the same objects. */
  readonly sameCommit: boolean;
}

/** Ratios of ctxgit (disk, no fsync) to native, per size. */
export interface GitBenchRatio {
  readonly turns: number;
  /** ctxgit's objects/s on disk over fast-import's objects/s (1 = as fast). */
  readonly diskSpeedOverNative: number;
  /** ctxgit's objects/s on memfs over fast-import's. */
  readonly memfsSpeedOverNative: number;
  /** ctxgit's median turn on disk over fast-import's mean turn. */
  readonly diskTurnOverNative: number;
  /** ctxgit's pack bytes over fast-import's. */
  readonly bytesOverNative: number;
}

/** Result of {@link runGitBench}. */
export interface GitBenchResult {
  readonly sizes: readonly number[];
  readonly gitVersion: string;
  readonly ours: readonly GitBenchOursRow[];
  readonly native: readonly GitBenchNativeRow[];
  readonly ratios: readonly GitBenchRatio[];
  /** Disk turn median at the largest size over that at the smallest (≈1: per-turn cost independent of length). */
  readonly diskTurnLargestOverSmallest: number;
}

interface Turn {
  readonly files: readonly { readonly path: readonly string[]; readonly data: string }[];
  readonly message: string;
  readonly timestamp: number;
}

const AUTHOR = { name: 'ctxgit bench', email: 'bench@ctxgit.invalid' };
const T0 = 1_700_000_000;

/** Deterministic pseudo-random text (mulberry32), so every run writes the same bytes. */
function textSource(seed: number): (length: number) => string {
  let a = seed >>> 0;
  const words = ['the', 'file', 'function', 'returns', 'error', 'test', 'value', 'path', 'config', 'build', 'line', 'output', 'src', 'index', 'ts'];
  return (length) => {
    let out = '';
    while (out.length < length) {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      out += `${words[((t ^ (t >>> 14)) >>> 0) % words.length] ?? ''} `;
    }
    return out.slice(0, length);
  };
}

/** The content of `n` turns: user and assistant items every turn, a tool result every other turn, a meta blob. */
function session(n: number): Turn[] {
  const text = textSource(n);
  const turns: Turn[] = [];
  let item = 0;
  const path = (key: string): string[] => {
    const order = String(item++).padStart(9, '0');
    return ['items', order.slice(0, 5), order.slice(5, 7), `${order}-${key}.json`];
  };
  for (let t = 0; t < n; t++) {
    const files = [
      { path: path(`u${t}`), data: JSON.stringify({ key: `u${t}`, role: 'user', state: 'full', text: text(200 + (t % 5) * 60) }) },
      { path: path(`a${t}`), data: JSON.stringify({ key: `a${t}`, role: 'assistant', state: 'full', text: text(600 + (t % 7) * 90) }) },
    ];
    if (t % 2 === 1) files.push({ path: path(`t${t}`), data: JSON.stringify({ key: `t${t}`, role: 'tool', state: 'full', text: text(1_500 + (t % 3) * 900) }) });
    files.push({ path: ['meta.json'], data: JSON.stringify({ turn: t, items: item, totalTokens: item * 180 }) });
    turns.push({ files, message: `turn ${t}: +${files.length - 1} items\n\nHead-Node: n${t}\nTotal-Tokens: ${item * 180}\n`, timestamp: T0 + t });
  }
  return turns;
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'ctxgit-bench-git-'));
}

/** What one writer did: its turn times, the total, the bytes under `objects/` and its last commit. */
interface OursRun {
  readonly head: string;
  readonly totalMs: number;
  readonly times: readonly number[];
  readonly repoBytes: number;
}

async function runOurs(turns: readonly Turn[], mode: GitBenchMode): Promise<OursRun> {
  const dir = mode === 'memfs' ? undefined : join(await tempDir(), 'ours.git');
  const ctx = dir === undefined ? await openGit({ memory: true }) : await openGit({ dir, fsync: mode === 'disk+fsync' });
  let root: string | null = null;
  let head: string | null = null;
  const times: number[] = [];
  const start = performance.now();
  for (const turn of turns) {
    const t0 = performance.now();
    head = await inBatch(ctx, async () => {
      const oids = await Promise.all(turn.files.map((f) => writeBlob(ctx, f.data)));
      const edits: TreeEdit[] = turn.files.map((f, i) => ({ path: f.path, oid: oids[i] ?? '', type: 'blob' }));
      root = await updateTree(ctx, root, edits);
      const who = { ...AUTHOR, timestamp: turn.timestamp, timezoneOffset: 0 };
      const commit = await writeCommit(ctx, { tree: root, parents: head === null ? [] : [head], message: turn.message, author: who });
      await compareAndSwapRef(ctx, 'refs/heads/bench', head, commit);
      return commit;
    });
    times.push(performance.now() - t0);
  }
  const totalMs = performance.now() - start;
  const repoBytes = totalBytes(await fileSizes(ctx.fs, `${ctx.gitdir}/objects`));
  if (dir !== undefined) await rm(join(dir, '..'), { recursive: true, force: true });
  return { head: head ?? '', totalMs, times, repoBytes };
}

function oursRow(turns: number, mode: GitBenchMode, run: OursRun, objects: number): GitBenchOursRow {
  const { times, totalMs, repoBytes } = run;
  const window = Math.min(100, Math.floor(times.length / 2));
  return {
    turns,
    mode,
    objects,
    objectsPerTurn: objects / turns,
    totalMs,
    objectsPerSec: objects / (totalMs / 1000),
    turnMedianMs: median(times),
    turnP95Ms: p95(times),
    lateOverEarly: median(times.slice(-window)) / median(times.slice(0, window)),
    repoBytes,
    repoBytesPerTurn: repoBytes / turns,
  };
}

function fastImportStream(turns: readonly Turn[]): Buffer {
  const parts: Buffer[] = [];
  const data = (s: string): void => {
    const b = Buffer.from(s, 'utf8');
    parts.push(Buffer.from(`data ${b.length}\n`), b, Buffer.from('\n'));
  };
  for (const turn of turns) {
    const who = `${AUTHOR.name} <${AUTHOR.email}> ${turn.timestamp} +0000`;
    parts.push(Buffer.from(`commit refs/heads/bench\nauthor ${who}\ncommitter ${who}\n`));
    data(turn.message);
    for (const f of turn.files) {
      parts.push(Buffer.from(`M 100644 inline ${f.path.join('/')}\n`));
      data(f.data);
    }
  }
  parts.push(Buffer.from('done\n'));
  return Buffer.concat(parts);
}

async function runNative(turns: readonly Turn[], ourHead: string): Promise<GitBenchNativeRow> {
  const base = await tempDir();
  const dir = join(base, 'native.git');
  spawnSync('git', ['init', '--bare', '--quiet', dir]);
  const stream = fastImportStream(turns);
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn('git', ['--git-dir', dir, 'fast-import', '--quiet', '--done'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}: ${err}`))));
    child.stdin.end(stream);
  });
  const totalMs = performance.now() - start;
  const head = spawnSync('git', ['--git-dir', dir, 'rev-parse', 'refs/heads/bench'], { encoding: 'utf8' }).stdout.trim();
  const repoBytes = totalBytes(await fileSizes(nodeFs as unknown as FsLike, join(dir, 'objects')));
  const objects = objectCount(dir);
  await rm(base, { recursive: true, force: true });
  return { turns: turns.length, objects, totalMs, objectsPerSec: objects / (totalMs / 1000), turnMeanMs: totalMs / turns.length, repoBytes, sameCommit: head === ourHead };
}

/**
 * Runs the benchmark.
 *
 * @param opts - `quick`: 100 and 1,000 turns, fsync only at 100 (for CI); otherwise 100, 1,000 and 10,000 turns on
 * memfs and disk, and disk with fsync up to 1,000 (at 10,000 it alone took two minutes and tells nothing the 1,000 row does not).
 * @returns ctxgit's rows per size and mode, fast-import's rows, and the ratios.
 * @example
 * ```ts
 * const { ratios } = await runGitBench({ quick: true });
 * ```
 */
export async function runGitBench(opts: { quick: boolean }): Promise<GitBenchResult> {
  const sizes = opts.quick ? [100, 1_000] : [100, 1_000, 10_000];
  const gitVersion = spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim();
  await runOurs(session(50), 'memfs'); // JIT warmup
  const ours: GitBenchOursRow[] = [];
  const native: GitBenchNativeRow[] = [];
  const ratios: GitBenchRatio[] = [];
  for (const n of sizes) {
    const turns = session(n);
    const runs = new Map<GitBenchMode, OursRun>();
    const modes: readonly GitBenchMode[] = n > (opts.quick ? 100 : 1_000) ? ['memfs', 'disk'] : ['memfs', 'disk', 'disk+fsync'];
    for (const mode of modes) runs.set(mode, await runOurs(turns, mode));
    const nat = await runNative(turns, runs.get('disk')?.head ?? '');
    native.push(nat);
    const rows = new Map([...runs].map(([mode, run]) => [mode, oursRow(n, mode, run, nat.objects)] as const));
    ours.push(...rows.values());
    const disk = rows.get('disk');
    const memfs = rows.get('memfs');
    if (disk === undefined || memfs === undefined) throw new Error('missing rows');
    ratios.push({
      turns: n,
      diskSpeedOverNative: disk.objectsPerSec / nat.objectsPerSec,
      memfsSpeedOverNative: memfs.objectsPerSec / nat.objectsPerSec,
      diskTurnOverNative: disk.turnMedianMs / nat.turnMeanMs,
      bytesOverNative: disk.repoBytes / nat.repoBytes,
    });
  }
  const diskRows = ours.filter((r) => r.mode === 'disk');
  const first = diskRows[0];
  const last = diskRows.at(-1);
  return {
    sizes,
    gitVersion,
    ours,
    native,
    ratios,
    diskTurnLargestOverSmallest: first === undefined || last === undefined ? Number.NaN : last.turnMedianMs / first.turnMedianMs,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await runGitBench({ quick: process.argv.includes('--quick') });
  const pad = (v: string, w: number): string => v.padStart(w);
  const out = (s: string): boolean => process.stdout.write(`${s}\n`);
  out(r.gitVersion);
  out(`${pad('turns', 7)}${pad('writer', 13)}${pad('objects', 9)}${pad('obj/turn', 9)}${pad('total ms', 10)}${pad('objects/s', 11)}${pad('turn med ms', 12)}${pad('p95 ms', 8)}${pad('late/early', 11)}${pad('bytes', 11)}${pad('B/turn', 8)}`);
  for (const n of r.sizes) {
    for (const o of r.ours.filter((x) => x.turns === n)) {
      out(`${pad(String(n), 7)}${pad(`ours ${o.mode}`, 13)}${pad(String(o.objects), 9)}${pad(o.objectsPerTurn.toFixed(2), 9)}${pad(o.totalMs.toFixed(0), 10)}${pad(o.objectsPerSec.toFixed(0), 11)}${pad(o.turnMedianMs.toFixed(3), 12)}${pad(o.turnP95Ms.toFixed(2), 8)}${pad(o.lateOverEarly.toFixed(2), 11)}${pad(String(o.repoBytes), 11)}${pad(o.repoBytesPerTurn.toFixed(0), 8)}`);
    }
    const nat = r.native.find((x) => x.turns === n);
    if (nat !== undefined) {
      out(`${pad(String(n), 7)}${pad('fast-import', 13)}${pad(String(nat.objects), 9)}${pad('', 9)}${pad(nat.totalMs.toFixed(0), 10)}${pad(nat.objectsPerSec.toFixed(0), 11)}${pad(`${nat.turnMeanMs.toFixed(3)}*`, 12)}${pad('', 8)}${pad('', 11)}${pad(String(nat.repoBytes), 11)}${pad((nat.repoBytes / n).toFixed(0), 8)}  same commit: ${String(nat.sameCommit)}`);
    }
    const ratio = r.ratios.find((x) => x.turns === n);
    if (ratio !== undefined) {
      out(`        ours/native: disk speed ${ratio.diskSpeedOverNative.toFixed(3)}, memfs speed ${ratio.memfsSpeedOverNative.toFixed(3)}, disk turn ${ratio.diskTurnOverNative.toFixed(1)}x, bytes ${ratio.bytesOverNative.toFixed(1)}x`);
    }
  }
  out(`* fast-import: mean per turn of one stream. Disk turn median, largest/smallest size: ${r.diskTurnLargestOverSmallest.toFixed(2)}`);
}
