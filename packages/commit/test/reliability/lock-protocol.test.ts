import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitConflictError, RefConflictError, openRepo } from '../../src/index.js';
import { compareAndSwapRef, openGit, readRef, recoverStaleLocks, removeTempObjects, writeBlob } from '../../src/git/index.js';
import type { Repo } from '../../src/index.js';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import { chainOf, cleanTemps, deadLock, exitedPid, fsck, seeded, tempDir, writeCounts } from './support.js';
import { buildBundles } from './bundle.js';
import { startWorker } from './workers.js';

afterAll(cleanTemps);
beforeAll(buildBundles); // the writer processes' bundle

/** Scale of the D1 case (rounds) for the full run: RELIABILITY_SCALE=5 runs five times as many. */
const SCALE = Number(process.env['RELIABILITY_SCALE'] ?? '1');
const ROUNDS = Math.max(1, Math.round(40 * SCALE));
const WRITERS = 8;

const totals = { d1Rounds: 0, d1Writers: WRITERS, d1StaleLocksPlanted: 0, d1Acknowledged: 0, d1Present: 0, d1Lost: 0, d1Duplicates: 0, d1Conflicts: 0, processRounds: 0, processAcknowledged: 0, processLost: 0 };
afterAll(() => writeCounts('locks', totals));

async function blob(ctx: Awaited<ReturnType<typeof openGit>>, text: string): Promise<string> {
  return writeBlob(ctx, text);
}

describe('the ref lock protocol', () => {
  it('a lock whose owner died on this host is taken over at once, even with staleLockMs Infinity', async () => {
    const dir = join(tempDir(), 'r.git');
    const ctx = await openGit({ dir, fsync: false, staleLockMs: Infinity });
    const a = await blob(ctx, 'a');
    await compareAndSwapRef(ctx, 'refs/x', null, a);
    writeFileSync(`${dir}/refs/x.lock`, deadLock(exitedPid()));
    const b = await blob(ctx, 'b');
    await compareAndSwapRef(ctx, 'refs/x', a, b);
    expect(await readRef(ctx, 'refs/x')).toBe(b);
    expect(readdirSync(`${dir}/refs`).filter((n) => n.startsWith('x'))).toEqual(['x']);
    expect(fsck(dir)).toEqual([]);
  });

  it("a live writer's lock is never removed, however old: the error names it and is retryable", async () => {
    const dir = join(tempDir(), 'r.git');
    const ctx = await openGit({ dir, fsync: false, staleLockMs: 0 });
    const a = await blob(ctx, 'a');
    const live = deadLock(process.ppid, 'abcdefabcdef0123');
    writeFileSync(`${dir}/refs/y.lock`, live);
    utimesSync(`${dir}/refs/y.lock`, new Date(0), new Date(0));
    const err = await compareAndSwapRef(ctx, 'refs/y', null, a).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(RefConflictError);
    expect((err as RefConflictError).data).toMatchObject({ reason: 'locked', retryable: true, holder: { owner: { pid: process.ppid, host: hostname() } } });
    expect((err as Error).message).toContain(`live writer (pid ${process.ppid}`);
    expect(await recoverStaleLocks(ctx, { olderThanMs: 0 })).toEqual([]);
    expect(readFileSync(`${dir}/refs/y.lock`, 'utf8')).toBe(live);
    // a moved ref says so, distinctly
    writeFileSync(`${dir}/refs/y.lock`, deadLock(exitedPid()));
    await compareAndSwapRef(ctx, 'refs/y', null, a);
    const moved = await compareAndSwapRef(ctx, 'refs/y', null, a).then(() => undefined, (e: unknown) => e);
    expect((moved as RefConflictError).data).toMatchObject({ reason: 'moved', retryable: true, actual: a });
    expect((moved as Error).message).toContain('another writer moved it first');
  });

  it('a lock of git or another host is taken over once older than staleLockMs, not before', async () => {
    const dir = join(tempDir(), 'r.git');
    const ctx = await openGit({ dir, fsync: false, staleLockMs: 60_000 });
    const a = await blob(ctx, 'a');
    const contents = [`${a}\n`, `${JSON.stringify({ ctxgitLock: 1, host: 'elsewhere', pid: 1, nonce: '0123456789abcdef', time: 0 })}\n`];
    for (const [i, content] of contents.entries()) {
      writeFileSync(`${dir}/refs/z${i}.lock`, content);
      await expect(compareAndSwapRef(ctx, `refs/z${i}`, null, a)).rejects.toMatchObject({ code: 'E_GIT_REF_CONFLICT', data: { reason: 'locked', retryable: true } });
      const old = new Date(Date.now() - 120_000);
      utimesSync(`${dir}/refs/z${i}.lock`, old, old);
      await compareAndSwapRef(ctx, `refs/z${i}`, null, a);
      expect(await readRef(ctx, `refs/z${i}`)).toBe(a);
    }
  });

  it("recoverStaleLocks and removeTempObjects remove dead writers' leftovers and nothing of a live writer", async () => {
    const dir = join(tempDir(), 'r.git');
    const ctx = await openGit({ dir, fsync: false });
    const a = await blob(ctx, 'a');
    await compareAndSwapRef(ctx, 'refs/ctxgit/dag', null, a);
    const dead = exitedPid();
    writeFileSync(`${dir}/refs/ctxgit/dag.lock`, deadLock(dead, '1111111111111111'));
    writeFileSync(`${dir}/refs/ctxgit/dag~new-1111111111111111.lock`, `${a}\n`);
    writeFileSync(`${dir}/refs/ctxgit/dag~stale-2222222222222222.lock`, deadLock(dead, '3333333333333333'));
    writeFileSync(`${dir}/refs/ctxgit/dag~takeover.lock`, deadLock(dead, '4444444444444444'));
    writeFileSync(`${dir}/refs/ctxgit/live.lock`, deadLock(process.ppid, '5555555555555555'));
    writeFileSync(`${dir}/refs/ctxgit/live~new-5555555555555555.lock`, `${a}\n`);
    const tag = (await import('node:crypto')).createHash('sha1').update(hostname()).digest('hex').slice(0, 8);
    const shard = `${dir}/objects/aa`;
    spawnSync('mkdir', ['-p', shard]);
    writeFileSync(`${shard}/tmp_obj_${tag}-${dead}_x1`, 'partial');
    writeFileSync(`${shard}/tmp_obj_${tag}-${process.ppid}_x2`, 'a live writer is about to rename this');
    spawnSync('mkdir', ['-p', `${dir}/objects/pack`]);
    writeFileSync(`${dir}/objects/pack/tmp_obj_${tag}-${dead}_x3`, 'PACK, cut short by a kill');
    expect(await recoverStaleLocks(ctx, { olderThanMs: 0 })).toEqual(['refs/ctxgit/dag']);
    expect(readdirSync(`${dir}/refs/ctxgit`).sort()).toEqual(['dag', 'live.lock', 'live~new-5555555555555555.lock']);
    expect(await removeTempObjects(ctx)).toEqual([`objects/aa/tmp_obj_${tag}-${dead}_x1`, `objects/pack/tmp_obj_${tag}-${dead}_x3`]);
    expect(existsSync(`${shard}/tmp_obj_${tag}-${process.ppid}_x2`)).toBe(true);
  });

  it('in-process racers over one dead lock: exactly one swap per expected value wins, no lock is lost', async () => {
    const dir = join(tempDir(), 'r.git');
    const contexts = [];
    for (let i = 0; i < 8; i++) contexts.push(await openGit({ dir, fsync: false }));
    const first = contexts[0];
    if (first === undefined) throw new Error('no context');
    const start = await blob(first, 'start');
    await compareAndSwapRef(first, 'refs/r', null, start);
    for (let round = 0; round < 20; round++) {
      writeFileSync(`${dir}/refs/r.lock`, deadLock(2 ** 30 + round, `${round.toString(16).padStart(16, 'a')}`));
      const before = await readRef(first, 'refs/r');
      const nexts = await Promise.all(contexts.map((c, i) => blob(c, `round ${round} writer ${i}`)));
      const outcomes = await Promise.all(contexts.map((c, i) => compareAndSwapRef(c, 'refs/r', before, nexts[i] ?? '').then(() => i, () => -1)));
      const winners = outcomes.filter((i) => i >= 0);
      expect(winners).toHaveLength(1);
      expect(await readRef(first, 'refs/r')).toBe(nexts[winners[0] ?? -1]);
      expect(readdirSync(`${dir}/refs`).filter((n) => n.endsWith('.lock'))).toEqual([]);
    }
  });
});

describe('D1: a dead writer\'s lock on a session DAG ref, then 8 writers with their own openRepo on one directory', () => {
  it(`${ROUNDS} rounds, fsync on: every acknowledged append present exactly once, no wait for a timeout`, async () => {
    const dir = join(tempDir(), 'ctx.git');
    const repos: Repo[] = [];
    for (let i = 0; i < WRITERS; i++) repos.push(await openRepo({ dir, fsync: true }));
    const sessions = [];
    for (let i = 0; i < WRITERS; i++) sessions.push(await (repos[i] as Repo).createSession(`w${i}`, { model: 'openai:gpt-4o' }));
    const acked = new Map<string, string[]>(sessions.map((_, i) => [`w${i}`, []]));
    const random = seeded(16);
    for (let round = 0; round < ROUNDS; round++) {
      // a dead writer's lock: a process of this host that exited (owner record), or git's format with an old mtime
      // each session has its own DAG ref: the dead lock sits on one writer's, a different one each round
      const lock = `${dir}/refs/ctxgit/sessions/w${round % WRITERS}/dag.lock`;
      if (random() < 0.75) writeFileSync(lock, deadLock(2 ** 30 + round, (round + 1).toString(16).padStart(16, '0')));
      else {
        writeFileSync(lock, `${'0'.repeat(40)}\n`);
        const old = new Date(Date.now() - 120_000);
        utimesSync(lock, old, old);
      }
      totals.d1StaleLocksPlanted++;
      await Promise.all(
        sessions.map(async (s, i) => {
          for (;;) {
            try {
              const node = await s.append({ role: 'user', output: `round ${round} writer ${i}` });
              acked.get(`w${i}`)?.push(node.id);
              totals.d1Acknowledged++;
              return;
            } catch (err) {
              if (!(err instanceof CommitConflictError || err instanceof RefConflictError)) throw err;
              totals.d1Conflicts++;
            }
          }
        }),
      );
      totals.d1Rounds++;
      // after each round a fresh reader finds every append acknowledged in it
      const check = await openRepo({ dir, fsync: true });
      for (const ids of acked.values()) if ((await check.store.getNode(ids[ids.length - 1] ?? '')) === undefined) totals.d1Lost++;
    }
    // at the end, each session's chain is exactly its acknowledged appends, in order, once each
    const check = await openRepo({ dir, fsync: true });
    for (const [session, ids] of acked) {
      const chain = await chainOf(check, session);
      totals.d1Lost += ids.filter((id) => !chain.includes(id)).length;
      totals.d1Duplicates += chain.length - new Set(chain).size;
      expect(chain).toEqual(ids);
    }
    totals.d1Present = totals.d1Acknowledged - totals.d1Lost;
    const fresh = await openRepo({ dir });
    expect((await verifyRepo(fresh)).issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(fsck(dir)).toEqual([]);
    expect(totals.d1Lost).toBe(0);
  });

  it("8 writer processes start on a dead process's lock on a session DAG ref: none waits for a timeout, none loses an append", async () => {
    const dir = join(tempDir(), 'ctx.git');
    await openRepo({ dir, fsync: true });
    const rounds = Math.max(1, Math.round(SCALE));
    for (let round = 0; round < rounds; round++) {
      spawnSync('mkdir', ['-p', `${dir}/refs/ctxgit/sessions/p${round % WRITERS}`]);
      writeFileSync(`${dir}/refs/ctxgit/sessions/p${round % WRITERS}/dag.lock`, deadLock(exitedPid(), (round + 7).toString(16).padStart(16, 'c')));
      const runs = Array.from({ length: WRITERS }, (_, i) => startWorker(dir, `p${i}`, `r${round}p${i}`, 3));
      const ends = await Promise.all(runs.map((r) => r.done));
      expect(ends.map((e) => (e.code === 0 ? 0 : e.stderr.slice(0, 300)))).toEqual(runs.map(() => 0));
      totals.processRounds++;
      const check = await openRepo({ dir });
      for (let i = 0; i < WRITERS; i++) {
        const chain = new Set(await chainOf(check, `p${i}`));
        for (const id of runs[i]?.acks ?? []) {
          totals.processAcknowledged++;
          if (!chain.has(id)) totals.processLost++;
        }
      }
    }
    expect(totals.processLost).toBe(0);
    expect(fsck(dir)).toEqual([]);
    expect((await verifyRepo(await openRepo({ dir }))).issues.filter((i) => i.severity === 'error')).toEqual([]);
  });
});
