/**
 * Remote benchmark: turns per second through one git server (git's own `git http-backend` behind a node:http bridge
 * on 127.0.0.1) with 1, 2, 4 and 8 writers, each with its own local repository, on separate sessions and on one
 * shared session, and the conflict rate; as ratios to the same writers writing the same turns locally only (the
 * contenders alternate within one run). A turn: append a question, commit, append the answer, and (remote) `sync`.
 * Each writer gives its nodes ids of its own, so a turn re-applied after a conflict keeps them.
 * Writers run concurrently in this process; the server's CGI processes run beside it.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/remote.ts [--quick]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openRepo } from '@ctxgit/commit';
import type { Remote, Repo } from '@ctxgit/commit';
import { startGitServer } from '../../packages/commit/test/remote/git-server.js';
import { median, p95 } from './stats.js';

/** One writer count and session mode. */
export interface RemoteBenchRow {
  readonly writers: number;
  readonly sessions: 'separate' | 'shared';
  readonly turns: number;
  /** Turns per second written locally only (append, commit, append). */
  readonly localTurnsPerSec: number;
  /** Turns per second through the server (the same, then `sync` until acknowledged). */
  readonly remoteTurnsPerSec: number;
  /** `remoteTurnsPerSec / localTurnsPerSec`. */
  readonly remoteOverLocal: number;
  /** Conflicts met (and resolved by sync) per acknowledged turn. */
  readonly conflictsPerTurn: number;
  /** One acknowledged turn, milliseconds. */
  readonly turnMedianMs: number;
  readonly turnP95Ms: number;
}

/** What {@link runRemoteBench} measures. */
export interface RemoteBenchResult {
  readonly rows: readonly RemoteBenchRow[];
  /** Turns per writer and the machine's load when the run started (other work on the machine slows the server's CGI processes most). */
  readonly notes: readonly string[];
}

async function writeTurns(repos: readonly Repo[], sessions: readonly string[], turns: number, remote: Remote | undefined): Promise<{ ms: number; conflicts: number; latencies: number[] }> {
  let conflicts = 0;
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    repos.map(async (repo, w) => {
      const name = sessions[w % sessions.length] ?? '';
      // each writer's node ids are its own: a re-applied turn keeps them (see Repo.sync)
      const ids = (session: string, seq: number): string => `w${w}-${session}-${seq}`;
      for (let i = 0; i < turns; i++) {
        const t0 = performance.now();
        const s = await repo.openSession(name, { ids });
        await s.append({ role: 'user', output: `writer ${w} question ${i}` });
        await s.commit();
        await s.append({ role: 'assistant', output: `writer ${w} answer ${i}` });
        if (remote !== undefined) conflicts += (await repo.sync(remote, { session: name, ids })).conflicts;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { ms: performance.now() - start, conflicts, latencies };
}

async function one(writers: number, mode: 'separate' | 'shared', turns: number): Promise<RemoteBenchRow> {
  const root = mkdtempSync(join(tmpdir(), 'ctxgit-bench-remote-'));
  const server = await startGitServer();
  try {
    const remote = { url: server.url };
    const sessions = mode === 'shared' ? ['shared'] : Array.from({ length: writers }, (_, w) => `s${w}`);
    const seed = await openRepo({ dir: join(root, 'seed.git'), fsync: false });
    const local: Repo[] = [];
    for (let w = 0; w < writers; w++) local.push(await openRepo({ dir: join(root, `local-${w}.git`), fsync: false }));
    for (const s of sessions) {
      await seed.createSession(s, { model: 'openai:gpt-4o' });
      await seed.sync(remote, { session: s });
      for (const repo of local) if (mode === 'separate' ? repo === local[sessions.indexOf(s)] : true) await repo.createSession(s, { model: 'openai:gpt-4o' });
    }
    const remoteRepos: Repo[] = [];
    for (let w = 0; w < writers; w++) remoteRepos.push(await openRepo({ dir: join(root, `remote-${w}.git`), fsync: false, remote }));
    // contenders alternate: half the local turns, the remote turns, the other half of the local turns
    const firstHalf = Math.ceil(turns / 2);
    const a = await writeTurns(local, sessions, firstHalf, undefined);
    const r = await writeTurns(remoteRepos, sessions, turns, remote);
    const b = await writeTurns(local, sessions, turns - firstHalf, undefined);
    const total = writers * turns;
    const localTurnsPerSec = (total / (a.ms + b.ms)) * 1000;
    const remoteTurnsPerSec = (total / r.ms) * 1000;
    return {
      writers,
      sessions: mode,
      turns: total,
      localTurnsPerSec,
      remoteTurnsPerSec,
      remoteOverLocal: remoteTurnsPerSec / localTurnsPerSec,
      conflictsPerTurn: r.conflicts / total,
      turnMedianMs: median(r.latencies),
      turnP95Ms: p95(r.latencies),
    };
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Runs the remote benchmark.
 *
 * @param opts - `quick`: 2 turns per writer instead of 10
 * @returns one row per writer count (1, 2, 4, 8) and session mode
 * @example
 * ```ts
 * const { rows } = await runRemoteBench({ quick: true });
 * ```
 */
export async function runRemoteBench(opts: { quick: boolean }): Promise<RemoteBenchResult> {
  const turns = opts.quick ? 2 : 10;
  const load = loadavg().map((l) => l.toFixed(1)).join(', ');
  const rows: RemoteBenchRow[] = [];
  for (const mode of ['separate', 'shared'] as const) for (const writers of [1, 2, 4, 8]) rows.push(await one(writers, mode, turns));
  return { rows, notes: [`${turns} turns per writer${opts.quick ? ' (quick)' : ''}; load average at the start ${load} on ${cpus().length} cores`] };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runRemoteBench({ quick: process.argv.includes('--quick') });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
