/**
 * ContextCommit engine benchmark: one turn (append a user node, commit, append the assistant's reply and its tool
 * result) at session lengths of 100, 1,000 and 10,000 turns, on memfs and on disk (no fsync, and with fsync for the
 * smallest size). The session prefix is imported in one DAG write and committed once (not timed); then `measured`
 * turns are timed one by one. Reported: median and p95 of a turn and of its commit alone, repository bytes and
 * loose objects written per turn, and the ratio of the median turn at the largest size to the smallest.
 * Object writing against native `git fast-import` is compared in bench/src/git.ts.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/commit.ts [--quick]`
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openRepo } from '@ctxgit/commit';
import type { FsLike, Repo } from '@ctxgit/commit';
import type { Transcript, TranscriptEntry } from '@ctxgit/dag';
import { median, p95 } from './stats.js';

/** Where the repository lives. */
export type CommitBenchFs = 'memfs' | 'disk' | 'disk+fsync';

/** Figures for one session length and storage. Times in milliseconds. */
export interface CommitBenchRow {
  readonly turns: number;
  readonly fs: CommitBenchFs;
  /** Turns timed on top of the prefix. */
  readonly measured: number;
  /** Items in the last commit. */
  readonly items: number;
  /** One turn: append user node + commit + append assistant node + append tool node. */
  readonly turnMedianMs: number;
  readonly turnP95Ms: number;
  /** The commit alone (ensureLatestCommit: walk, pipeline, objects, refs). */
  readonly commitMedianMs: number;
  readonly commitP95Ms: number;
  /** Growth of the repository's files (objects and refs) per measured turn, DAG included. */
  readonly bytesPerTurn: number;
  /** New loose objects per measured turn, DAG included. */
  readonly objectsPerTurn: number;
  /** Importing and committing the prefix (not part of the turn figures). */
  readonly setupMs: number;
}

/** Result of {@link runCommitBench}. */
export interface CommitBenchResult {
  readonly quick: boolean;
  readonly rows: readonly CommitBenchRow[];
  /** Median turn at the largest size over the median turn at 100 turns, per storage (≈1: a turn does not grow with the session). */
  readonly turnRatioLargestOver100: { readonly [fs: string]: number };
  /** Same for bytes written per turn. */
  readonly bytesRatioLargestOver100: { readonly [fs: string]: number };
  readonly notes: readonly string[];
}

const words = (n: number, seed: number): string =>
  Array.from({ length: n }, (_, i) => ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'][(seed * 7 + i * 3) % 8]).join(' ');

function turnEntries(i: number, base: number): TranscriptEntry[] {
  return [
    { role: 'user', output: `Turn ${i}: ${words(18, i)}?`, ...(base > 0 ? { predecessor: base - 2 } : {}) },
    { role: 'assistant', output: `Checking ${i}: ${words(24, i + 1)}.`, predecessor: base },
    { role: 'tool', name: 'bash', input: { cmd: `grep -n ${i} file.txt` }, output: `${i}: ${words(60, i + 2)}`, caller: base + 1 },
  ];
}

function prefix(turns: number): Transcript {
  const entries: TranscriptEntry[] = [];
  for (let i = 0; i < turns; i++) entries.push(...turnEntries(i, entries.length));
  return { format: 'openai-chat', entries, head: entries.length - 2, skipped: {}, malformed: [], stats: {}, metadata: {} };
}

async function repoFiles(fs: FsLike, gitdir: string): Promise<{ bytes: number; objects: number }> {
  let bytes = 0;
  let objects = 0;
  const walk = async (dir: string, inObjects: boolean): Promise<void> => {
    for (const name of (await fs.promises.readdir(dir)).map(String)) {
      const p = `${dir}/${name}`;
      const st = await fs.promises.stat(p);
      if (st.isDirectory()) await walk(p, inObjects || name === 'objects');
      else {
        bytes += Number((st as unknown as { size: number }).size);
        if (inObjects && /^[0-9a-f]{38}$/.test(name)) objects++;
      }
    }
  };
  await walk(gitdir, false);
  return { bytes, objects };
}

async function measure(fsKind: CommitBenchFs, turns: number, measured: number): Promise<CommitBenchRow> {
  let t = 1_700_000_000_000;
  const clock = (): number => (t += 1000);
  let dir: string | undefined;
  let repo: Repo;
  if (fsKind === 'memfs') repo = await openRepo({ memory: true, clock, fsync: false });
  else {
    dir = await mkdtemp(join(tmpdir(), 'ctxgit-bench-commit-'));
    repo = await openRepo({ dir: join(dir, 'ctx.git'), clock, fsync: fsKind === 'disk+fsync' });
  }
  const fs = repo.git.fs;
  try {
    const t0 = performance.now();
    const s = await repo.importSession('bench', prefix(turns), { model: 'openai:gpt-4o', window: 20_000_000, clock });
    await s.commit();
    const setupMs = performance.now() - t0;
    // warm-up turns (not measured)
    const turnOnce = async (i: number): Promise<{ turn: number; commit: number; items: number }> => {
      const a = performance.now();
      await s.append({ role: 'user', output: `Turn ${i}: ${words(18, i)}?` });
      const b = performance.now();
      const c = await s.commit();
      const e = performance.now();
      const reply = await s.append({ role: 'assistant', output: `Checking ${i}: ${words(24, i + 1)}.` });
      await s.append({ role: 'tool', name: 'bash', input: { cmd: `grep -n ${i} file.txt` }, output: `${i}: ${words(60, i + 2)}`, caller: reply.id });
      return { turn: performance.now() - a, commit: e - b, items: c.items.length };
    };
    for (let i = 0; i < 3; i++) await turnOnce(turns + i);
    const before = await repoFiles(fs, repo.git.gitdir);
    const turnMs: number[] = [];
    const commitMs: number[] = [];
    let items = 0;
    for (let i = 0; i < measured; i++) {
      const r = await turnOnce(turns + 3 + i);
      turnMs.push(r.turn);
      commitMs.push(r.commit);
      items = r.items;
    }
    const after = await repoFiles(fs, repo.git.gitdir);
    return {
      turns,
      fs: fsKind,
      measured,
      items,
      turnMedianMs: median(turnMs),
      turnP95Ms: p95(turnMs),
      commitMedianMs: median(commitMs),
      commitP95Ms: p95(commitMs),
      bytesPerTurn: Math.round((after.bytes - before.bytes) / measured),
      objectsPerTurn: (after.objects - before.objects) / measured,
      setupMs,
    };
  } finally {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the engine benchmark.
 *
 * @param opts - `quick`: memfs at 100 and 1,000 turns, disk at 100, 20 measured turns, no fsync row; else 100, 1,000 and 10,000 on memfs and disk with 60, plus disk+fsync at 100
 * @returns the figures
 * @example
 * ```ts
 * const r = await runCommitBench({ quick: true });
 * r.turnRatioLargestOver100.memfs; // ≈ 1
 * ```
 */
export async function runCommitBench(opts: { readonly quick: boolean }): Promise<CommitBenchResult> {
  const sizes = opts.quick ? [100, 1000] : [100, 1000, 10_000];
  const measured = opts.quick ? 20 : 60;
  const rows: CommitBenchRow[] = [];
  const failures: string[] = [];
  const attempt = async (fsKind: CommitBenchFs, n: number, m: number): Promise<void> => {
    try {
      rows.push(await measure(fsKind, n, m));
    } catch (err) {
      failures.push(`${fsKind} ${n} turns failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  for (const n of sizes) await attempt('memfs', n, measured);
  for (const n of opts.quick ? [100] : sizes) await attempt('disk', n, measured);
  if (!opts.quick) await attempt('disk+fsync', 100, Math.min(measured, 20));
  const ratio = (fsKind: CommitBenchFs, f: (r: CommitBenchRow) => number): number => {
    const small = rows.find((r) => r.fs === fsKind && r.turns === 100);
    const large = rows.filter((r) => r.fs === fsKind).sort((a, b) => b.turns - a.turns)[0];
    return small === undefined || large === undefined || f(small) === 0 ? 0 : Number((f(large) / f(small)).toFixed(2));
  };
  return {
    quick: opts.quick,
    rows,
    turnRatioLargestOver100: { memfs: ratio('memfs', (r) => r.turnMedianMs), disk: ratio('disk', (r) => r.turnMedianMs) },
    bytesRatioLargestOver100: { memfs: ratio('memfs', (r) => r.bytesPerTurn), disk: ratio('disk', (r) => r.bytesPerTurn) },
    notes: [
      'a turn = append user node + commit + append assistant node + append tool node; 3 warm-up turns first',
      'window 20,000,000 tokens so no fold runs: the figures isolate the growth of the session (aging changes one old item per turn)',
      'bytes and objects include the DAG (GitNodeStore) writes; loose objects only, nothing is packed',
      ...failures,
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await runCommitBench({ quick: process.argv.includes('--quick') });
  const head = ['turns', 'fs', 'items', 'turn median ms', 'turn p95 ms', 'commit median ms', 'commit p95 ms', 'bytes/turn', 'objects/turn', 'setup ms'];
  const lines = r.rows.map((x) =>
    [x.turns, x.fs, x.items, x.turnMedianMs.toFixed(2), x.turnP95Ms.toFixed(2), x.commitMedianMs.toFixed(2), x.commitP95Ms.toFixed(2), x.bytesPerTurn, x.objectsPerTurn.toFixed(1), x.setupMs.toFixed(0)].join(' | '),
  );
  process.stdout.write(`${head.join(' | ')}\n${lines.join('\n')}\n`);
  for (const note of r.notes) process.stdout.write(`note: ${note}\n`);
  process.stdout.write(`turn median, largest / 100: ${JSON.stringify(r.turnRatioLargestOver100)}; bytes per turn, largest / 100: ${JSON.stringify(r.bytesRatioLargestOver100)}\n`);
}
