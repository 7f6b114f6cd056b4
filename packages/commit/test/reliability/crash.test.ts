// Issue 16: processes killed with SIGKILL at random points of append, commit (with and without a fold), import, fork,
// attach and merge, on repositories on disk with fsync on; and concurrent writers (2, 4, 8; on one session and on
// separate ones; with and without a dead writer's lock), one of them killed. After each kill: `git fsck --strict`
// clean, verify clean (no error), every acknowledged append on its session's chain exactly once, every acknowledged
// commit readable, and the next append + commit succeeds at once (one attempt, with `staleLockMs: Infinity`: no lock
// is waited out). Writers are one bundled JavaScript file run by plain node (fixtures/crash-worker.ts, bundle.ts), each
// loaded while the one before it runs, each starting at the operation it is to die in (nothing replayed), with an
// estimated-token model (no rank table loads): a kill costs a process start and the operation. `ctxgit import` runs
// bundled too. No small time limit: a slow machine runs the same kills, slower.
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incompleteImports, openRepo } from '../../src/index.js';
import type { Repo, VerifyReport } from '../../src/index.js';
import { dagRef } from '../../src/store/refs.js';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import { buildBundles, CLI_BUNDLE, DIE_AT_WRITE } from './bundle.js';
import { FOLD_BUDGET, FOLD_FILL, MODEL, PAD } from './fixtures/crash-model.js';
import { chainOf, cleanTemps, deadLock, exitedPid, seeded, tempDir, writeCounts } from './support.js';
import type { FastWorker, WorkerLine } from './workers.js';
import { startFastWorker } from './workers.js';

afterAll(cleanTemps);

/**
 * Kills in CI: 6 operation kinds × 30 (three lanes of writers, each its own repository, renewed every 10 kills), 20
 * kills of `ctxgit import`, and one kill in each of the 12 concurrency cases: 212. RELIABILITY_SCALE multiplies
 * each (`npm run reliability:full` runs 10: 2,120).
 */
const SCALE = Number(process.env['RELIABILITY_SCALE'] ?? '1');
const KINDS = ['append', 'commit', 'fold', 'fork', 'attach', 'merge'] as const;
type Kind = (typeof KINDS)[number];
const PER_KIND = Math.max(1, Math.round(30 * SCALE));
const LANES = 3;
const KILLS_PER_REPO = 10;
const IMPORT_KILLS = Math.max(1, Math.round(20 * SCALE));
const CASE_ROUNDS = Math.max(1, Math.round(SCALE));

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const TRANSCRIPT = join(ROOT, '..', 'shared', 'corpus', 'swe-agent', 'function_calling_simple.traj');
const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

const totals = {
  kills: 0,
  killsByOp: '',
  killedMidOp: 0,
  importKills: 0,
  importKilledMidWrite: 0,
  importKilledBeforeMarking: 0,
  importsReportedIncomplete: 0,
  importsResumedToCompletion: 0,
  concurrencyCases: 0,
  concurrencyKills: 0,
  concurrentWriters: 0,
  conflictsRetried: 0,
  acknowledgedAppends: 0,
  acknowledgedCommits: 0,
  foldCommits: 0,
  appendsPresent: 0,
  commitsPresent: 0,
  lost: 0,
  duplicates: 0,
  fsckRuns: 0,
  fsckFailures: 0,
  verifyRuns: 0,
  verifyFailures: 0,
  nextTurns: 0,
  nextTurnMaxMs: 0,
  staleLocksSeen: 0,
  tempFilesSeen: 0,
  wallSeconds: 0,
  cores: cpus().length,
  loadAverageAtStart: '',
  loadAverageAtEnd: '',
};
const byOp = new Map<string, number>();
afterAll(() => writeCounts('crash', { ...totals, killsByOp: [...byOp].map(([op, n]) => `${op} ${n}`).join(', ') }));

/** What a repository must hold: the acknowledged appends of each session, the acknowledged commits. */
interface Expected {
  readonly gitdir: string;
  readonly acked: Map<string, string[]>;
  readonly commits: string[];
}

function newExpected(): Expected {
  return { gitdir: join(tempDir(), 'ctx.git'), acked: new Map(), commits: [] };
}

/**
 * A new repository for a lane of writers, prepared here once (not replayed by each victim): sessions `s` (with a first
 * exchange) and `f` (small budget), `f` filled past its fold threshold, so that every commit of `f` after one more
 * exchange folds.
 */
async function newLaneRepo(): Promise<Expected> {
  const e = newExpected();
  const repo = await openRepo({ dir: e.gitdir, fsync: true });
  const s = await repo.createSession('s', { model: MODEL });
  // a first exchange on `s`: a fork needs a node to fork at
  e.acked.set('s', [(await s.append({ role: 'user', output: 'first question' })).id, (await s.append({ role: 'assistant', output: 'first answer' })).id]);
  e.commits.push((await s.commit()).id);
  const f = await repo.createSession('f', { model: MODEL, budget: FOLD_BUDGET });
  const ids: string[] = [];
  for (let i = 0; i < FOLD_FILL; i++) {
    ids.push((await f.append({ role: 'user', output: `fill question ${i} ${PAD}` })).id);
    ids.push((await f.append({ role: 'assistant', output: `fill answer ${i} ${PAD}` })).id);
  }
  e.acked.set('f', ids);
  const folded = await f.commit();
  e.commits.push(folded.id);
  if (folded.summary.folded > 0) totals.foldCommits++; // the fill's commit folds already
  await repo.settled(); // its background roll-up done before the workers and git see the files
  return e;
}

/** Records a worker's acknowledgements (its lines so far) in `e`. */
function collect(e: Expected, lines: readonly WorkerLine[]): void {
  for (const [kind, session = '', id = '', flag] of lines) {
    if (kind === 'ack') {
      e.acked.set(session, [...(e.acked.get(session) ?? []), id]);
      totals.acknowledgedAppends++;
    } else if (kind === 'commit') {
      e.commits.push(id);
      totals.acknowledgedCommits++;
      if (flag === 'folded') totals.foldCommits++;
    } else if (kind === 'conflict') totals.conflictsRetried++;
  }
}

function fsck(gitdir: string): Promise<string[]> {
  return new Promise((resolve) =>
    execFile('git', ['--git-dir', gitdir, 'fsck', '--strict', '--no-dangling', '--no-progress'], { env: GIT_ENV }, (err, stdout, stderr) => {
      const lines = `${stdout}${stderr}`.split('\n').filter((l) => l !== '' && !l.startsWith('notice:'));
      resolve(err === null ? lines : [`exit ${String(err.code)}`, ...lines]);
    }),
  );
}

/**
 * The checks after a kill: fsck, verify (`walkAll`: with its walk of every object of every ref's history), every acknowledged append on its session's chain once (and no user or
 * assistant text twice: no append was written twice by a retry), every acknowledged commit readable, and the next
 * append + commit of `next` in one attempt. Returns the problems found, and the open repository.
 */
async function check(e: Expected, where: string, next: string, walkAll = true): Promise<{ problems: string[]; repo: Repo; report: VerifyReport }> {
  const problems: string[] = [];
  const f = await fsck(e.gitdir);
  totals.fsckRuns++;
  if (f.length > 0) {
    totals.fsckFailures++;
    problems.push(`${where}: git fsck: ${f.join('; ')}`);
  }
  // staleLockMs Infinity: a dead process's lock is taken over at once; nothing may need a timeout
  const repo = await openRepo({ dir: e.gitdir, fsync: true, staleLockMs: Infinity });
  const report = await verifyRepo(repo, { previous: null, quick: !walkAll });
  totals.verifyRuns++;
  const errors = report.issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) {
    totals.verifyFailures++;
    problems.push(`${where}: verify: ${JSON.stringify(errors.slice(0, 3))}`);
  }
  totals.staleLocksSeen += report.issues.filter((i) => i.code === 'E_VERIFY_STALE_LOCK').length;
  totals.tempFilesSeen += report.issues.filter((i) => i.code === 'E_VERIFY_TEMP_FILE').length;
  const nodes = new Map<string, Awaited<ReturnType<typeof repo.store.getNode>>>();
  const node = async (id: string): Promise<Awaited<ReturnType<typeof repo.store.getNode>>> => {
    if (!nodes.has(id)) nodes.set(id, await repo.store.getNode(id));
    return nodes.get(id);
  };
  for (const [session, ids] of e.acked) {
    const chain: string[] = [];
    for (let id = (await repo.store.getSession(session))?.head ?? undefined; id !== undefined; id = (await node(id))?.predecessor) chain.unshift(id);
    const on = new Set(chain);
    for (const id of ids) {
      if (on.has(id)) totals.appendsPresent++;
      else {
        totals.lost++;
        problems.push(`${where}: acknowledged append ${id} of ${session} is not on its chain`);
      }
    }
    const onChain = await Promise.all(chain.map(node));
    const texts = onChain.filter((n) => n?.role === 'user' || n?.role === 'assistant').map((n) => JSON.stringify(n?.output));
    const twice = texts.length - new Set(texts).size + (ids.length - new Set(ids).size);
    if (twice > 0) {
      totals.duplicates += twice;
      problems.push(`${where}: ${session} holds ${twice} appends twice`);
    }
  }
  for (const id of e.commits) {
    try {
      await repo.readCommit(id);
      totals.commitsPresent++;
    } catch (err) {
      totals.lost++;
      problems.push(`${where}: acknowledged commit ${id}: ${String(err)}`);
    }
  }
  // the next turn, at once: one attempt, no retry
  const started = Date.now();
  try {
    const s = (await repo.listSessions()).includes(next) ? await repo.openSession(next) : await repo.createSession(next, { model: MODEL });
    const appended = await s.append({ role: 'user', output: `${where}: the next turn` });
    e.acked.set(next, [...(e.acked.get(next) ?? []), appended.id]);
    e.commits.push((await s.commit()).id);
    totals.nextTurns++;
    totals.nextTurnMaxMs = Math.max(totals.nextTurnMaxMs, Date.now() - started);
  } catch (err) {
    problems.push(`${where}: the next append + commit failed: ${String(err)}`);
  }
  await repo.settled(); // the next turn's background roll-up done before git fsck reads the files again
  return { problems, repo, report };
}

/** The operation a worker was in when it died: its last `begin` without an `end`, or `between`. */
function opAtKill(lines: readonly WorkerLine[]): string {
  let open = 'between';
  for (const [kind, op = ''] of lines) {
    if (kind === 'begin') open = op;
    else if (kind === 'end') open = 'between';
  }
  return open;
}

/**
 * One lane: its kills, each aimed at an operation kind; a victim starts at that operation (after what it needs: an
 * append before a commit, a fork before an attach or a merge) and repeats it until killed, at a random point of its
 * first one (a random delay up to 1.2 times the kind's mean duration, as measured so far in the lane).
 */
async function lane(index: number, targets: readonly Kind[]): Promise<string[]> {
  const problems: string[] = [];
  const random = seeded(16_000 + index);
  const took = new Map<string, { n: number; ms: number }>();
  let e = await newLaneRepo();
  let spare: FastWorker = startFastWorker();
  for (const [k, target] of targets.entries()) {
    if (k > 0 && k % KILLS_PER_REPO === 0) e = await newLaneRepo();
    const run = spare;
    spare = startFastWorker(); // loads while this one runs and is checked
    await run.ready;
    const began = new Map<string, number>();
    let armed = false;
    run.onLine = ([kind, op = '']) => {
      if (kind === 'begin') began.set(op, Date.now());
      if (kind === 'end') {
        const t = took.get(op) ?? { n: 0, ms: 0 };
        took.set(op, { n: t.n + 1, ms: t.ms + Date.now() - (began.get(op) ?? Date.now()) });
      }
      if (kind === 'begin' && op === target && !armed) {
        armed = true;
        const t = took.get(op);
        const mean = t === undefined || t.n === 0 ? 40 : t.ms / t.n;
        setTimeout(() => run.kill(), Math.floor(random() * mean * 1.2));
      }
    };
    run.go(['op', e.gitdir, target, `l${index}k${k}`]);
    const end = await run.done;
    if (end.signal !== 'SIGKILL') problems.push(`lane ${index} kill ${k}: the worker ended by itself: ${String(end.code)} ${end.stderr.slice(0, 400)}`);
    totals.kills++;
    const op = opAtKill(run.lines);
    byOp.set(op, (byOp.get(op) ?? 0) + 1);
    if (op !== 'between') totals.killedMidOp++;
    collect(e, run.lines);
    // verify's walk of every object of every ref's history once per repository (fsck reads every object each time)
    const last = (k + 1) % KILLS_PER_REPO === 0 || k === targets.length - 1;
    problems.push(...(await check(e, `lane ${index} kill ${k} (${op})`, 's', last)).problems);
  }
  spare.kill();
  await spare.done;
  return problems;
}

/**
 * `ctxgit import` (bundled, plain node) of the transcript into `session`, with the suite's estimated-token model;
 * with `dieAt`, killed with SIGKILL as its `dieAt`-th file-system write starts (fixtures/die-at-write.ts).
 */
function importRun(gitdir: string, session: string, dieAt?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; writes: number; stderr: string }> {
  const counted = `${gitdir}.${session}.writes`;
  const child = spawn(process.execPath, ['--import', DIE_AT_WRITE, CLI_BUNDLE, 'import', TRANSCRIPT, '--format', 'swe-agent', '--model', MODEL, '--session', session, '--repo', gitdir, '--json'], {
    cwd: ROOT,
    env: { ...process.env, CTXGIT_REPO: '', CTXGIT_COUNT_WRITES: counted, CTXGIT_DIE_AT_WRITE: String(dieAt ?? 0), CTXGIT_WRITES_UNDER: gitdir, TMPDIR: dirname(gitdir) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, writes: existsSync(counted) ? Number(readFileSync(counted, 'utf8')) : 0, stderr })),
  );
}

/**
 * `ctxgit import` killed at random points of its writes; the next kill re-runs the same command, which resumes it,
 * until a run completes; then the next session. A marked import is reported by verify with the command to resume it.
 */
async function importLane(): Promise<string[]> {
  const problems: string[] = [];
  const random = seeded(16_100);
  const e = newExpected();
  const reference = await importRun(e.gitdir, 'ref');
  if (reference.code !== 0) return [`the reference import failed: ${reference.stderr.slice(0, 400)}`];
  const refRepo = await openRepo({ dir: e.gitdir });
  const refChain = (await chainOf(refRepo, 'ref')).length;
  const refItems = (await (await refRepo.openSession('ref')).commit()).items.length;
  let n = 0;
  for (let k = 0, runs = 0; k < IMPORT_KILLS; runs++) {
    const session = `imp-${n}`;
    const run = await importRun(e.gitdir, session, 1 + Math.floor(random() * reference.writes));
    if (run.signal === 'SIGKILL') {
      k++;
      totals.importKills++;
      totals.kills++;
      byOp.set('import', (byOp.get('import') ?? 0) + 1);
    } else if (run.code !== 0) problems.push(`import run ${runs}: ${String(run.code)} ${run.stderr.slice(0, 400)}`);
    const { problems: found, repo, report } = await check(e, `import run ${runs}`, 's');
    problems.push(...found);
    const marked = (await incompleteImports(repo)).map((m) => m.session);
    const reported = report.issues.filter((i) => i.code === 'E_VERIFY_IMPORT_INCOMPLETE').map((i) => i.path);
    if (JSON.stringify(reported) !== JSON.stringify(marked.map((s) => `refs/ctxgit/imports/${s}`))) problems.push(`import run ${runs}: verify reported ${JSON.stringify(reported)}, markers ${JSON.stringify(marked)}`);
    if (marked.includes(session)) {
      totals.importKilledMidWrite++;
      totals.importsReportedIncomplete++;
      continue; // the next kill re-runs the same command: it resumes
    }
    if (run.signal === 'SIGKILL' && !(await repo.listSessions()).includes(session)) {
      totals.importKilledBeforeMarking++;
      continue; // killed before it marked the session: nothing of it was written, the re-run starts afresh
    }
    // complete: the session holds the whole transcript, as the reference import does
    const chain = (await chainOf(repo, session)).length;
    const items = (await (await repo.openSession(session)).commit()).items.length;
    if (chain !== refChain || items !== refItems) problems.push(`import ${session}: ${chain} nodes and ${items} items, the reference has ${refChain} and ${refItems}`);
    else totals.importsResumedToCompletion++;
    n++;
  }
  return problems;
}

/** Concurrent writers on one repository, one of them killed at a random point; with a dead writer's lock planted first, or not. */
async function concurrencyCase(writers: number, shared: boolean, stale: boolean, round: number): Promise<string[]> {
  const random = seeded(16_200 + writers * 10 + (shared ? 2 : 0) + (stale ? 1 : 0) + round * 1000);
  const e = newExpected();
  const names = Array.from({ length: writers }, (_, i) => (shared ? 'shared' : `own-${i}`));
  const setup = await openRepo({ dir: e.gitdir, fsync: true });
  for (const name of new Set(names)) await setup.createSession(name, { model: MODEL });
  if (stale) {
    // a dead process's lock on the DAG ref every writer (shared) or the first writer (separate) needs first
    const lock = `${e.gitdir}/${dagRef(names[0] ?? '')}.lock`;
    writeFileSync(lock, deadLock(exitedPid(), `${writers}${shared ? 'a' : 'b'}${round}`.padEnd(16, 'c')));
  }
  const runs = names.map(() => startFastWorker());
  await Promise.all(runs.map((r) => r.ready));
  const victim = Math.floor(random() * writers);
  const afterAcks = 1 + Math.floor(random() * 3);
  const delay = Math.floor(random() * 30);
  const target = runs[victim];
  if (target !== undefined) {
    let acks = 0;
    target.onLine = ([kind]) => {
      if (kind === 'ack' && ++acks === afterAcks) setTimeout(() => target.kill(), delay);
    };
  }
  // the victim has turns enough left to be killed in one, however fast a turn is (it dies after at most 3 acks + 30 ms)
  runs.forEach((r, i) => r.go(['turns', e.gitdir, names[i] ?? '', `c${writers}${shared ? 's' : 'o'}${stale ? 'x' : ''}r${round}w${i}`, i === victim ? '40' : '8']));
  const ends = await Promise.all(runs.map((r) => r.done));
  const problems: string[] = [];
  ends.forEach((end, i) => {
    if (i === victim ? end.signal === null && end.code !== 0 : end.code !== 0) problems.push(`case ${writers}/${shared}/${stale} writer ${i}: ${String(end.code)} ${end.stderr.slice(0, 400)}`);
  });
  if (ends[victim]?.signal === 'SIGKILL') {
    totals.kills++;
    totals.concurrencyKills++;
  } else problems.push(`case ${writers}/${shared}/${stale}: the victim finished before its kill`);
  totals.concurrencyCases++;
  totals.concurrentWriters += writers;
  const op = target === undefined ? 'between' : opAtKill(target.lines);
  byOp.set(`concurrent ${op}`, (byOp.get(`concurrent ${op}`) ?? 0) + 1);
  for (const r of runs) collect(e, r.lines);
  problems.push(...(await check(e, `case ${writers} ${shared ? 'one session' : 'separate'}${stale ? ' stale lock' : ''}`, names[0] ?? 's')).problems);
  return problems;
}

describe('processes killed with SIGKILL (fsync on, on disk)', () => {
  beforeAll(buildBundles);

  it(`${KINDS.length * PER_KIND} writer kills at random points of ${KINDS.join(', ')}, ${IMPORT_KILLS} of ctxgit import, ${12 * CASE_ROUNDS} with 2/4/8 concurrent writers: nothing acknowledged is lost`, async () => {
    const started = Date.now();
    totals.loadAverageAtStart = loadavg().map((x) => x.toFixed(1)).join(' ');
    const targets: Kind[][] = Array.from({ length: LANES }, () => []);
    KINDS.flatMap((kind) => Array.from({ length: PER_KIND }, () => kind)).forEach((kind, i) => targets[i % LANES]?.push(kind));
    const cases: [number, boolean, boolean][] = [];
    for (const writers of [2, 4, 8]) for (const shared of [true, false]) for (const stale of [false, true]) cases.push([writers, shared, stale]);
    const concurrency = async (): Promise<string[]> => {
      const found: string[] = [];
      for (let round = 0; round < CASE_ROUNDS; round++) for (const [w, s, x] of cases) found.push(...(await concurrencyCase(w, s, x, round)));
      return found;
    };
    const problems = (await Promise.all([...targets.map(async (t, i) => lane(i, t)), importLane(), concurrency()])).flat();
    totals.wallSeconds = Math.round((Date.now() - started) / 1000);
    totals.loadAverageAtEnd = loadavg().map((x) => x.toFixed(1)).join(' ');
    expect(problems).toEqual([]);
    expect(totals.lost).toBe(0);
    expect(totals.kills).toBe(KINDS.length * PER_KIND + IMPORT_KILLS + 12 * CASE_ROUNDS);
    // every kind was killed in the middle at least once, and the folding session's commits do fold
    for (const kind of [...KINDS, 'import']) expect(byOp.get(kind) ?? 0, kind).toBeGreaterThan(0);
    expect(totals.foldCommits).toBeGreaterThan(0);
    expect(totals.importsReportedIncomplete).toBeGreaterThan(0);
  }, 1_800_000 * Math.max(1, SCALE)); // a hung run still ends; RELIABILITY_SCALE multiplies the work, and the limit
});

