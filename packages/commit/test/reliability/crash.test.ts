import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/canonical-json.js';
import { openRepo, recoverStaleLocks } from '../../src/index.js';
import { verifyRepo } from '../../src/verify/verify-repo.js';
import { cleanTemps, fsck, seeded, tempDir, writeCounts } from './support.js';
import { startWorker } from './workers.js';

afterAll(cleanTemps);

/**
 * Victim repositories killed in parallel, and kills per repository: 3 × 10 = 30 SIGKILLs in CI, scaled by
 * RELIABILITY_SCALE (the full run, `npm run reliability:full`, makes 3 × 70 = 210). The first victim runs plain turns
 * (append + commit); the others run mixed turns: a small budget so that commits fold, and a fork, an attach or a merge
 * every third turn.
 */
const SCALE = Number(process.env['RELIABILITY_SCALE'] ?? '1');
const REPOS = 3;
const KILLS_PER_REPO = Math.max(1, Math.round(10 * SCALE));

const totals = { kills: 0, killsSurvived: 0, killedMidTurn: 0, acknowledgedAppends: 0, acknowledgedCommits: 0, appendChecks: 0, commitChecks: 0, appendsPresent: 0, commitsPresent: 0, staleLocksLeft: 0, tempFilesLeft: 0, lost: 0, fsckRuns: 0 };
afterAll(() => writeCounts('crash', totals));

async function victim(seed: number, mode: 'plain' | 'mix'): Promise<string[]> {
  const problems: string[] = [];
  const random = seeded(seed);
  const gitdir = join(tempDir(), 'ctx.git');
  const acked: string[] = [];
  const commits: string[] = [];
  for (let k = 0; k < KILLS_PER_REPO; k++) {
    // kill after 0-5 acknowledged appends, then 0-15 ms more: at start-up, mid-append, mid-commit or between turns
    const afterAcks = Math.floor(random() * 6);
    const extraMs = Math.floor(random() * 16);
    let armed = false;
    const run = startWorker(
      gitdir,
      'victim',
      `s${seed}k${k}`,
      'forever',
      (kind, n) => {
        if (kind === 'ack' && n >= afterAcks && !armed) {
          armed = true;
          setTimeout(() => run.kill(), extraMs);
        }
      },
      mode,
    );
    if (afterAcks === 0) {
      armed = true;
      setTimeout(() => run.kill(), 700 + extraMs * 40);
    }
    const end = await run.done;
    if (end.signal !== 'SIGKILL') problems.push(`kill ${k}: the worker ended by itself: ${String(end.code)} ${end.stderr.slice(0, 400)}`);
    totals.kills++;
    if (run.acks.length > run.commits.length) totals.killedMidTurn++;
    acked.push(...run.acks);
    commits.push(...run.commits);
    // a new process opens the repository as the kill left it
    const repo = await openRepo({ dir: gitdir, fsync: true });
    const report = await verifyRepo(repo, { previous: null });
    if (!report.ok) problems.push(`kill ${k}: verify: ${JSON.stringify(report.issues.filter((i) => i.severity === 'error').slice(0, 3))}`);
    totals.staleLocksLeft += report.issues.filter((i) => i.code === 'E_VERIFY_STALE_LOCK').length;
    totals.tempFilesLeft += report.issues.filter((i) => i.code === 'E_VERIFY_TEMP_FILE').length;
    totals.fsckRuns++;
    const f = fsck(gitdir);
    if (f.length > 0) problems.push(`kill ${k}: git fsck: ${f.join('; ')}`);
    for (const id of acked) {
      totals.appendChecks++;
      const node = await repo.store.getNode(id);
      if (node === undefined) {
        totals.lost++;
        problems.push(`kill ${k}: acknowledged append ${id} is missing`);
      } else totals.appendsPresent++;
    }
    for (const id of commits) {
      totals.commitChecks++;
      try {
        await repo.readCommit(id);
        totals.commitsPresent++;
      } catch (err) {
        totals.lost++;
        problems.push(`kill ${k}: acknowledged commit ${id}: ${String(err)}`);
      }
    }
    // the start-up recovery of a writer whose previous process died (no other writer runs)
    await recoverStaleLocks(repo.git, { olderThanMs: 0 });
    if (report.ok && f.length === 0) totals.killsSurvived++;
  }
  totals.acknowledgedAppends += acked.length;
  totals.acknowledgedCommits += commits.length;
  // the session's chain holds every acknowledged append exactly once, in order
  const repo = await openRepo({ dir: gitdir });
  const chain: string[] = [];
  for (let id = (await repo.store.getSession('victim'))?.head ?? undefined; id !== undefined; ) {
    chain.unshift(id);
    id = (await repo.store.getNode(id))?.predecessor;
  }
  const position = new Map(chain.map((id, i) => [id, i]));
  let last = -1;
  for (const id of acked) {
    const at = position.get(id);
    if (at === undefined || at <= last) problems.push(`acknowledged append ${id} is not in order on the session's chain`);
    last = at ?? last;
  }
  expect(new Set(chain).size).toBe(chain.length);
  const texts = await Promise.all(chain.map(async (id) => (await repo.store.getNode(id))?.output));
  expect(new Set(texts).size).toBe(texts.length);
  const s = await repo.openSession('victim');
  const c = await s.commit();
  // plain turns: the context holds the chain item for item (mixed ones fold and attach, so they differ by design)
  if (mode === 'plain') expect(c.items.map((it) => it.sourceNodeId)).toEqual(chain);
  else expect(c.items.length).toBeGreaterThan(0);
  expect(canonicalJson((await verifyRepo(repo)).issues.filter((i) => i.severity === 'error'))).toBe('[]');
  return problems;
}

describe('processes killed with SIGKILL while appending and committing', () => {
  it(`${REPOS * KILLS_PER_REPO} kills at seeded moments of append, commit (with folds), fork, attach and merge: every repository reopens verified and fsck-clean with every acknowledged append`, async () => {
    const problems = (await Promise.all(Array.from({ length: REPOS }, (_, i) => victim(1000 + i, i === 0 ? 'plain' : 'mix')))).flat();
    expect(problems).toEqual([]);
    expect(totals.kills).toBe(REPOS * KILLS_PER_REPO);
    expect(totals.appendChecks).toBeGreaterThan(0);
  });
});
