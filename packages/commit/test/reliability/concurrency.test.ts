import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommitConflictError, RefConflictError, openRepo } from '../../src/index.js';
import type { Repo, Session } from '../../src/index.js';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import type { Storage } from './support.js';
import { chainOf, cleanTemps, fsck, STORAGES, tempDir, writeCounts } from './support.js';
import { buildBundles } from './bundle.js';
import { startWorker } from './workers.js';

afterAll(cleanTemps);
beforeAll(buildBundles); // the writer processes' bundle

const totals = { processes: 0, asyncCallers: 0, appendsAttempted: 0, appendsPresent: 0, duplicates: 0, lost: 0, conflicts: 0, untypedConflicts: 0, commits: 0 };
afterAll(() => writeCounts('concurrency', totals));

async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof CommitConflictError || err instanceof RefConflictError) {
        totals.conflicts++;
        continue;
      }
      totals.untypedConflicts++;
      throw err;
    }
  }
}

/** Every acknowledged append is on its session's chain exactly once, and nothing else is. */
async function checkSessions(repo: Repo, expected: Map<string, string[]>): Promise<void> {
  for (const [session, acked] of expected) {
    const chain = await chainOf(repo, session);
    totals.appendsPresent += acked.filter((id) => chain.includes(id)).length;
    totals.lost += acked.filter((id) => !chain.includes(id)).length;
    totals.duplicates += chain.length - new Set(chain).size;
    expect([...chain].sort()).toEqual([...acked].sort());
    const texts = await Promise.all(chain.map(async (id) => (await repo.store.getNode(id))?.output));
    expect(new Set(texts).size).toBe(texts.length);
  }
}

describe.each(STORAGES)('async callers in one process (storage %#)', (make) => {
  it('8 callers on one session and 4 on their own sessions: no append lost or duplicated, conflicts typed and retried', async () => {
    const s: Storage = make();
    const repo = await openRepo({ ...s.where, fs: s.fs, clock: () => 1_700_000_000_000, fsync: false });
    await repo.createSession('shared', { model: 'openai:gpt-4o' });
    for (let i = 0; i < 4; i++) await repo.createSession(`own-${i}`, { model: 'openai:gpt-4o' });
    const expected = new Map<string, string[]>([['shared', []], ...Array.from({ length: 4 }, (_, i) => [`own-${i}`, []] as [string, string[]])]);
    const caller = async (session: string, label: string, turns: number): Promise<void> => {
      totals.asyncCallers++;
      const sess: Session = await repo.openSession(session);
      for (let t = 0; t < turns; t++) {
        totals.appendsAttempted++;
        const node = await retrying(() => sess.append({ role: 'user', output: `${label} ${t}` }));
        expected.get(session)?.push(node.id);
        if (t % 2 === 1) {
          await retrying(() => sess.commit());
          totals.commits++;
        }
      }
    };
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => caller('shared', `caller-${i}`, 5)),
      ...Array.from({ length: 4 }, (_, i) => caller(`own-${i}`, `own-caller-${i}`, 5)),
    ]);
    await checkSessions(repo, expected);
    for (const name of expected.keys()) {
      const c = await (await repo.openSession(name)).commit();
      expect(c.items.map((it) => it.sourceNodeId)).toEqual(await chainOf(repo, name));
    }
    const report = await verifyRepo(repo);
    expect(report.issues.filter((i) => i.severity === 'error')).toEqual([]);
    if (s.name === 'disk') expect(fsck(s.gitdir)).toEqual([]);
  });
});

// This case once failed under very heavy load: a worker read an object as missing because two pack roll-ups of other
// processes passed during one read (each process rolls packs up after its turns). Readers now re-read the pack list
// while packs vanish under them; pack-race.test.ts forces that interleaving.
describe('several processes on one repository', () => {
  it('3 processes on one session and 2 on their own: no append lost or duplicated; conflicts typed; DAG valid', async () => {
    const gitdir = join(tempDir(), 'ctx.git');
    const repo = await openRepo({ dir: gitdir });
    await repo.createSession('shared', { model: 'openai:gpt-4o' });
    const plan: [string, string][] = [['shared', 'p0'], ['shared', 'p1'], ['shared', 'p2'], ['solo-a', 'p3'], ['solo-b', 'p4']];
    const turns = 6;
    const runs = plan.map(([session, label]) => startWorker(gitdir, session, label, turns));
    totals.processes += runs.length;
    totals.appendsAttempted += runs.length * turns;
    const ends = await Promise.all(runs.map((r) => r.done));
    expect(ends.map((e) => (e.code === 0 ? 0 : `${String(e.code)} ${e.stderr.slice(0, 300)}`))).toEqual(plan.map(() => 0));
    for (const r of runs) {
      totals.conflicts += r.conflicts.length;
      totals.commits += r.commits.length;
      expect(r.acks).toHaveLength(turns);
      for (const code of r.conflicts) expect(['E_COMMIT_CONFLICT', 'E_GIT_REF_CONFLICT']).toContain(code);
    }
    const fresh = await openRepo({ dir: gitdir });
    const expected = new Map<string, string[]>();
    plan.forEach(([session], i) => expected.set(session, [...(expected.get(session) ?? []), ...(runs[i]?.acks ?? [])]));
    await checkSessions(fresh, expected);
    const report = await verifyRepo(fresh);
    expect(report.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(fsck(gitdir)).toEqual([]);
  });
});
