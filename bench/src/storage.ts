/**
 * Storage benchmark (issue 17): the chained corpus session on disk, one write per turn (`appendTurn`: the reply of
 * the previous call, its tool results and the next messages, plus the commit), at 100, 1,000, 5,000 and 10,000 turns (quick: 100).
 * Reported per size: a turn's median / p95 / p99, the fold turns against the median, the items a turn walks (the
 * live list its rules, totals, render and tree writes work on, plus the turn's new items), files and objects
 * written per turn, the repository's bytes against what `git gc` packs the same repository into, and a cold start:
 * a fresh repository object opens the session, finds its latest commit and renders it, counting the objects it
 * reads from storage (`onObjectRead`) against the items of that commit. Topic `storage` of `pnpm bench`.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/storage.ts [--quick] [--turns=10000]`
 */
import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openRepo } from '@ctxgit/commit';
import type { FsLike } from '@ctxgit/commit';
import { render } from '@ctxgit/render';
import { fileSizes, totalBytes } from './file-sizes.js';
import { objectCount } from './git-object-count.js';
import { chainCorpus, prefix, TurnFeeder } from './commit.js';
import { median, medianRun, p95, p99 } from './stats.js';

/** Figures for one session length. Times in milliseconds. */
export interface StorageBenchRow {
  readonly turns: number;
  readonly measured: number;
  readonly turnMedianMs: number;
  readonly turnP95Ms: number;
  readonly turnP99Ms: number;
  /**
   * Automatic maintenance after a turn (the roll-up its write started, awaited with `repo.settled()` once the turn
   * resolved; in a backend it runs during the model call): mean over the measured turns, and the longest.
   */
  readonly maintenanceMeanMs: number;
  readonly maintenanceMaxMs: number;
  /** The turn with the maintenance that followed it: p99 (what back-to-back turns with no model call between would see). */
  readonly turnWithMaintenanceP99Ms: number;
  /** Measured turns that folded, and the slowest of them over the median turn (0 when none folded). */
  readonly foldTurns: number;
  readonly foldTurnOverMedian: number;
  /**
   * `foldTurnOverMedian` of each run of this size, ascending: the same turns fold in every run, but the slowest of a
   * handful of fold turns varies from run to run, so the row is the run with the median of these.
   */
  readonly foldTurnOverMedianRuns: readonly number[];
  /** Garbage-collection pauses inside the slowest fold turn (V8's `gc` performance entries that start in it), in ms. */
  readonly foldTurnGcMs: number;
  /** Items a turn walks: its parent's live list plus its new items; median and largest over the measured turns. */
  readonly itemsWalkedMedian: number;
  readonly itemsWalkedMax: number;
  /** Items behind the summaries at the end (never walked by a turn). */
  readonly foldedItems: number;
  /** Cold start: objects read from storage by a fresh repository object to open the session, find its commit and render it. */
  readonly coldStartObjectsRead: number;
  /** Items of the commit the cold start renders (its live list: what the objects read follow). */
  readonly coldStartLiveItems: number;
  readonly coldStartMs: number;
  /** New files under `objects/` per measured turn (packs and indexes; rolled-up packs replace others). */
  readonly filesPerTurn: number;
  /** Objects written per measured turn (objects in the repository after, minus before). */
  readonly objectsPerTurn: number;
  /** Bytes of `objects/` after the measured turns, as ctxgit left it (automatic maintenance only). */
  readonly repoBytes: number;
  /** The same repository after `git gc`. */
  readonly gitGcBytes: number;
  readonly repoOverGitGc: number;
  readonly packs: number;
}

/** The file system the repository is on. */
const disk = nodeFs as unknown as FsLike;

async function measure(turns: number, measured: number): Promise<Omit<StorageBenchRow, 'foldTurnOverMedianRuns'>> {
  const chain = await chainCorpus(turns + measured + 2);
  let t = 1_700_000_000_000;
  const clock = (): number => (t += 1000);
  const base = mkdtempSync(join(tmpdir(), 'ctxgit-bench-storage-'));
  const gitdir = join(base, 'ctx.git');
  try {
    const repo = await openRepo({ dir: gitdir, clock, fsync: false });
    const start = prefix(chain, turns);
    const s = await repo.importSession('bench', start, { model: 'openai:gpt-4o', window: 32_000, clock });
    await s.commit();
    const feeder = new TurnFeeder(chain, start.head as number, (await s.head()) as string);
    const turnOnce = async (call: number): Promise<number> => {
      const { inputs, record } = feeder.next(call);
      const a = performance.now();
      const { nodes, commit } = await s.appendTurn(inputs);
      render(commit, { provider: 'openai-chat' });
      const ms = performance.now() - a;
      const m = performance.now();
      await repo.settled();
      maintenance.push(performance.now() - m);
      record(nodes);
      walked.push(live + inputs.length);
      live = commit.items.length;
      folded.push(commit.summary.folded > 0);
      return ms;
    };
    let live = (await s.commit()).items.length;
    const walked: number[] = [];
    const folded: boolean[] = [];
    const maintenance: number[] = [];
    for (let k = 0; k < 2; k++) await turnOnce(chain.calls[turns + k] as number);
    walked.length = 0;
    folded.length = 0;
    maintenance.length = 0;
    const filesBefore = await fileSizes(disk, join(gitdir, 'objects'));
    const objectsBefore = objectCount(gitdir);
    const times: number[] = [];
    const starts: number[] = [];
    const gc: { start: number; ms: number }[] = [];
    const gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gc.push({ start: e.startTime, ms: e.duration });
    });
    gcObserver.observe({ entryTypes: ['gc'] });
    for (let k = 0; k < measured; k++) {
      starts.push(performance.now());
      times.push(await turnOnce(chain.calls[turns + 2 + k] as number));
    }
    // gc entries are delivered after the event loop turns
    await new Promise((resolve) => setImmediate(resolve));
    gcObserver.disconnect();
    const foldTurns = folded.filter((f) => f).length;
    // the slowest fold turn (the first of equals), and the collections that started inside it
    const slowest = times.reduce((m, x, k) => (folded[k] === true && (m < 0 || x > (times[m] as number)) ? k : m), -1);
    const from = starts[slowest] ?? 0;
    const to = from + (times[slowest] ?? 0);
    const gcInSlowest = gc.filter((g) => g.start >= from && g.start < to).reduce((n, g) => n + g.ms, 0);
    // Cold start: a fresh repository object (empty caches) opens the session, finds the latest commit, renders it.
    let read = 0;
    const c0 = performance.now();
    const cold = await openRepo({ dir: gitdir, clock, fsync: false, onObjectRead: () => void read++ });
    const latest = await (await cold.openSession('bench')).commit();
    render(latest, { provider: 'openai-chat' });
    const coldStartMs = performance.now() - c0;
    const coldStartObjectsRead = read;
    const latestFolded = Number(/(\d+) summarized/u.exec((await s.log({ limit: 1 }))[0]?.message ?? '')?.[1] ?? 0);
    const filesAfter = await fileSizes(disk, join(gitdir, 'objects'));
    const added = [...filesAfter.keys()].filter((f) => !filesBefore.has(f)).length;
    const repoBytes = totalBytes(filesAfter);
    const objects = objectCount(gitdir);
    const copy = join(base, 'gc.git');
    cpSync(gitdir, copy, { recursive: true });
    spawnSync('git', ['--git-dir', copy, 'gc', '--quiet'], { encoding: 'utf8' });
    const gitGcBytes = totalBytes(await fileSizes(disk, join(copy, 'objects')));
    const packs = [...filesAfter.keys()].filter((f) => f.endsWith('.pack')).length;
    return {
      turns,
      measured,
      turnMedianMs: median(times),
      turnP95Ms: p95(times),
      turnP99Ms: p99(times),
      maintenanceMeanMs: maintenance.reduce((x, y) => x + y, 0) / measured,
      maintenanceMaxMs: Math.max(...maintenance),
      turnWithMaintenanceP99Ms: p99(times.map((x, k) => x + (maintenance[k] ?? 0))),
      foldTurns,
      foldTurnOverMedian: slowest < 0 ? 0 : Number(((times[slowest] as number) / median(times)).toFixed(2)),
      foldTurnGcMs: Number(gcInSlowest.toFixed(1)),
      itemsWalkedMedian: median(walked),
      itemsWalkedMax: Math.max(...walked),
      foldedItems: latestFolded,
      coldStartObjectsRead,
      coldStartLiveItems: latest.items.length,
      coldStartMs,
      filesPerTurn: added / measured,
      objectsPerTurn: (objects - objectsBefore) / measured,
      repoBytes,
      gitGcBytes,
      repoOverGitGc: Number((repoBytes / gitGcBytes).toFixed(2)),
      packs,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * Runs the storage benchmark.
 *
 * @param opts - `quick`: 100 turns, 30 measured, one run; else 100, 1,000, 5,000 and 10,000, 100 measured, each size run three
 * times (a fresh repository each) and reported by its run of median slowest fold turn over the median turn;
 * `turns`: other session lengths (each measured over 100 turns, 30 when quick) @defaultValue `turns`: as `quick` says
 * @returns one row per size
 * @example
 * ```ts
 * const rows = await runStorageBench({ quick: true });
 * ```
 */
export async function runStorageBench(opts: { readonly quick: boolean; readonly turns?: readonly number[] }): Promise<StorageBenchRow[]> {
  const rows: StorageBenchRow[] = [];
  const runs = opts.quick ? 1 : 3;
  for (const n of opts.turns ?? (opts.quick ? [100] : [100, 1000, 5000, 10_000])) {
    const made: Omit<StorageBenchRow, 'foldTurnOverMedianRuns'>[] = [];
    for (let k = 0; k < runs; k++) made.push(await measure(n, opts.quick ? 30 : 100));
    const { run, figures } = medianRun(made, (r) => r.foldTurnOverMedian);
    rows.push({ ...run, foldTurnOverMedianRuns: figures });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const turns = process.argv.find((a) => a.startsWith('--turns='))?.slice('--turns='.length).split(',').map(Number);
  const rows = await runStorageBench({ quick: process.argv.includes('--quick'), ...(turns === undefined ? {} : { turns }) });
  process.stdout.write(
    'turns | measured | turn median ms | p95 | p99 | maintenance mean ms | max | turn + maintenance p99 | fold turns | slowest fold / median | of each run | gc in it ms | items walked median | max | folded items | cold start objects read | its live items | cold start ms | files/turn | objects/turn | repo B | git gc B | repo/gc | packs\n',
  );
  for (const r of rows) {
    process.stdout.write(
      `${[r.turns, r.measured, r.turnMedianMs.toFixed(2), r.turnP95Ms.toFixed(2), r.turnP99Ms.toFixed(2), r.maintenanceMeanMs.toFixed(2), r.maintenanceMaxMs.toFixed(1), r.turnWithMaintenanceP99Ms.toFixed(1), r.foldTurns, r.foldTurnOverMedian, r.foldTurnOverMedianRuns.join(' '), r.foldTurnGcMs, r.itemsWalkedMedian, r.itemsWalkedMax, r.foldedItems, r.coldStartObjectsRead, r.coldStartLiveItems, r.coldStartMs.toFixed(0), r.filesPerTurn.toFixed(2), r.objectsPerTurn.toFixed(1), r.repoBytes, r.gitGcBytes, r.repoOverGitGc, r.packs].join(' | ')}\n`,
    );
  }
}
