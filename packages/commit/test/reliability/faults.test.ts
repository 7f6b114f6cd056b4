import { afterAll, describe, expect, it } from 'vitest';
import { openRepo } from '../../src/index.js';
import { recoverStaleLocks } from '../../src/git/index.js';
import type { Node } from '@ctxgit/dag';
import type { ContextCommit, Repo, Session } from '../../src/index.js';
import type { LockIdentity } from '../../src/git/index.js';
import { canonicalJson } from '@ctxgit/dag';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import { cloneStorage } from './clone.js';
import { ERRNOS, FAULT_OPS, FaultFs } from './fault-fs.js';
import type { FaultMode, FaultOp } from './fault-fs.js';
import type { Storage } from './support.js';
import { STORAGES, cleanTemps, fsck, ghostIdentity, isTyped, memStorage, seeded, stepClock, writeCounts } from './support.js';

afterAll(cleanTemps);

const TURN_TEXT = 'the turn under test';
const MODEL = 'openai:gpt-4o';

/** Totals over both storages, written to .counts/faults.json. */
const totals = { cases: 0, injected: 0, survived: 0, typedErrors: 0, untypedErrors: 0, swallowed: 0, crashes: 0, torn: 0, staleLocks: 0, ackedChecked: 0, lost: 0, fsckRuns: 0 };
afterAll(() => writeCounts('faults', totals));

async function makeBase(s: Storage): Promise<{ nodes: string[] }> {
  const repo = await openRepo({ ...s.where, fs: s.fs, clock: stepClock(), fsync: false });
  const chat = await repo.createSession('chat', { model: MODEL });
  const nodes: string[] = [];
  for (let i = 0; i < 2; i++) {
    nodes.push((await chat.append({ role: 'user', output: `question ${i}` })).id);
    const a = await chat.append({ role: 'assistant', output: `answer ${i}` });
    nodes.push(a.id, (await chat.append({ role: 'tool', name: 'ls', input: { dir: '.' }, output: `file${i}.txt`, caller: a.id })).id);
    await chat.commit();
  }
  await repo.settled(); // the last commit's roll-up done before the storage is copied
  return { nodes };
}

/** Opens the storage; a faulted writer runs as a simulated process of its own, dead once its case is over. */
async function open(s: Storage, fs = s.fs, identity?: LockIdentity): Promise<Repo> {
  return openRepo({ ...s.where, fs, clock: stepClock(1_800_000_000_000), fsync: true, ...(identity === undefined ? {} : { identity }) });
}

/** Disk cases per operation kind (seeded sample of the indexes; memfs takes every index). */
const DISK_SAMPLE = 7;

/**
 * The modes tried at one operation index: on memfs every one (ENOSPC, EIO, EACCES, a crash and, for writes, a torn
 * write); on disk (real fsync, git fsck) one mode per sampled index, rotating, to stay within CI time.
 */
function modesAt(storage: Storage['name'], op: FaultOp, index: number, count: number, pick: () => number): FaultMode[] {
  const crashes: FaultMode[] = op === 'write' ? ['crash', 'torn'] : ['crash'];
  if (storage === 'memfs') return [...ERRNOS, ...crashes];
  const rotation: FaultMode[] = [ERRNOS[index % ERRNOS.length] as FaultMode, ...crashes];
  return pick() < DISK_SAMPLE / count ? [rotation[index % rotation.length] as FaultMode] : [];
}

/** Each storage with the synchronous calls of small files that node's fs and memfs offer, and memfs through `promises` alone. */
const VARIANTS = [...STORAGES.map((make) => ({ make, sync: true })), { make: memStorage, sync: false }];

describe.each(VARIANTS)('a fault at every fs operation of a turn (storage %#)', ({ make, sync }) => {
  it('rejects typed, reopens consistent, keeps every acknowledged append, and the turn succeeds when retried', async () => {
    const base = make();
    const { nodes: baseNodes } = await makeBase(base);
    // dry run: how many operations of each kind one turn (append + commit) makes
    const dry = await cloneStorage(base);
    const counter = new FaultFs(dry.fs, { sync });
    const dryRepo = await open(dry, counter.fs);
    const drySession = await dryRepo.openSession('chat');
    await observe(drySession);
    counter.count();
    await drySession.append({ role: 'user', output: TURN_TEXT });
    await drySession.commit();
    await dryRepo.settled(); // a roll-up the commit started counts as the turn's
    const perKind = { ...counter.counts };
    expect(perKind.write).toBeGreaterThan(5);
    // with the synchronous calls, the turn's small files go through them (the ref locks, values and renames)
    if (sync) expect(counter.syncOps).toBeGreaterThan(10);
    else expect(counter.syncOps).toBe(0);
    const problems: string[] = [];
    const pick = seeded(9);
    for (const op of FAULT_OPS) {
      for (let index = 0; index < perKind[op]; index++) {
        for (const mode of modesAt(base.name, op, index, perKind[op], pick)) {
          const label = `${base.name}${sync ? ' (sync calls)' : ''} ${op}#${index} ${mode}`;
          const problem = await runCase(base, baseNodes, op, index, mode, sync);
          if (problem !== undefined) problems.push(`${label}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

/** What a case reads before the fault is armed (the dry run reads the same, so both make the same operations). */
async function observe(session: Session): Promise<{ head: string | null; context: string | undefined }> {
  return { head: await session.head(), context: (await session.log({ limit: 1 }))[0]?.id };
}

async function runCase(base: Storage, baseNodes: readonly string[], op: FaultOp, index: number, mode: FaultMode, sync: boolean): Promise<string | undefined> {
  totals.cases++;
  const s = await cloneStorage(base);
  const fault = new FaultFs(s.fs, { sync });
  const repo = await open(s, fault.fs, ghostIdentity());
  const session = await repo.openSession('chat');
  const { head: headBefore, context: contextBefore } = await observe(session);
  fault.arm(op, index, mode);
  let acked: Node | undefined;
  let committed: ContextCommit | undefined;
  let error: unknown;
  try {
    acked = await session.append({ role: 'user', output: TURN_TEXT });
    committed = await session.commit();
  } catch (err) {
    error = err;
  }
  await repo.settled();
  if (fault.pending) return 'the fault was never reached (the turn made fewer operations than the dry run)';
  totals.injected++;
  const crashed = mode === 'crash' || mode === 'torn';
  if (crashed) totals[mode === 'crash' ? 'crashes' : 'torn']++;
  if (error === undefined) totals.swallowed++;
  else if (isTyped(error)) totals.typedErrors++;
  else {
    totals.untypedErrors++;
    if (!crashed) return `rejected with an untyped error: ${String((error as Error).name)} ${String((error as { code?: unknown }).code)} ${(error as Error).message}`;
  }
  if (!crashed && error !== undefined) {
    // the process lives on: the same objects retry (caches must not be poisoned by the failure)
    try {
      if ((await session.head()) === headBefore) acked = await session.append({ role: 'user', output: TURN_TEXT });
      committed = await session.commit();
    } catch (err) {
      return `in-process retry failed: ${err instanceof Error ? `${err.name} ${err.message}` : String(err)}`;
    }
  }
  // a new process opens the storage as the fault left it
  const fresh = await open(s);
  const first = await verifyRepo(fresh, { previous: null });
  if (!first.ok) return `verify after the fault: ${JSON.stringify(first.issues.filter((i) => i.severity === 'error').slice(0, 3))}`;
  if (first.issues.some((i) => i.code === 'E_VERIFY_STALE_LOCK')) totals.staleLocks++;
  if (s.name === 'disk') {
    totals.fsckRuns++;
    const f = fsck(s.gitdir);
    if (f.length > 0) return `git fsck after the fault: ${f.join('; ')}`;
  }
  for (const id of [...baseNodes, ...(acked === undefined ? [] : [acked.id])]) {
    totals.ackedChecked++;
    if ((await fresh.store.getNode(id)) === undefined) {
      totals.lost++;
      return `acknowledged node ${id} is missing`;
    }
  }
  if (acked !== undefined && canonicalJson(await fresh.store.getNode(acked.id)) !== canonicalJson(acked)) return 'the acknowledged node differs';
  if (committed !== undefined && (await fresh.readCommit(committed.id)).id !== committed.id) return 'the acknowledged commit is missing';
  const s2 = await fresh.openSession('chat');
  const headNow = await s2.head();
  const nodeNow = headNow === null ? undefined : await fresh.store.getNode(headNow);
  if (headNow !== headBefore && nodeNow?.output !== TURN_TEXT) return `the head moved to an unexpected node ${String(headNow)}`;
  const ctxNow = (await s2.log({ limit: 1 }))[0];
  if (ctxNow !== undefined && ctxNow.id !== contextBefore && ctxNow.headNodeId !== headNow) return 'the context ref points at a commit of another head';
  // retry the turn in the new process (after the start-up lock recovery a crashed writer needs)
  if (crashed) await recoverStaleLocks(fresh.git, { olderThanMs: 0 });
  try {
    if (headNow === headBefore) await s2.append({ role: 'user', output: TURN_TEXT });
    const c = await s2.commit();
    const copies = c.items.filter((it) => it.blocks.some((b) => b.type === 'text' && b.text === TURN_TEXT)).length;
    if (copies !== 1) return `after the retry the turn's text is in the commit ${copies} times`;
  } catch (err) {
    return `retry in a new process failed: ${err instanceof Error ? `${err.name} ${err.message}` : String(err)}`;
  }
  const after = await verifyRepo(fresh, { previous: first.token });
  if (!after.ok) return `verify after the retry: ${JSON.stringify(after.issues.slice(0, 3))}`;
  totals.survived++;
  return undefined;
}

describe('a fault at every fs operation of creating a repository and a session (memfs)', () => {
  it('rejects typed, and a retry in a new process creates both', async () => {
    const dry = new FaultFs(memStorage().fs);
    dry.count();
    const r0 = await openRepo({ memory: true, fs: dry.fs, clock: stepClock(), fsync: true });
    await r0.createSession('chat', { model: MODEL });
    const perKind = { ...dry.counts };
    const problems: string[] = [];
    for (const op of FAULT_OPS) {
      for (let index = 0; index < perKind[op]; index++) {
        for (const mode of [ERRNOS[index % ERRNOS.length] as FaultMode, 'crash' as const]) {
          totals.cases++;
          const s = memStorage();
          const fault = new FaultFs(s.fs);
          fault.arm(op, index, mode);
          let error: unknown;
          try {
            const repo = await openRepo({ memory: true, fs: fault.fs, clock: stepClock(), fsync: true, identity: ghostIdentity() });
            await repo.createSession('chat', { model: MODEL });
          } catch (err) {
            error = err;
          }
          if (fault.pending) continue;
          totals.injected++;
          if (mode === 'crash') totals.crashes++;
          if (error === undefined) totals.swallowed++;
          else if (isTyped(error)) totals.typedErrors++;
          else {
            totals.untypedErrors++;
            if (mode !== 'crash') problems.push(`${op}#${index} ${mode}: untyped ${String((error as Error).name)} ${String((error as { code?: unknown }).code)} ${String((error as Error).message)}`);
          }
          try {
            const repo = await openRepo({ memory: true, fs: s.fs, clock: stepClock(), fsync: true });
            await recoverStaleLocks(repo.git, { olderThanMs: 0 });
            const names = await repo.listSessions();
            const chat = names.includes('chat') ? await repo.openSession('chat').catch(async () => repo.createSession('chat', { model: MODEL })) : await repo.createSession('chat', { model: MODEL });
            await chat.append({ role: 'user', output: 'hello' });
            await chat.commit();
            const report = await verifyRepo(repo);
            if (!report.ok) problems.push(`${op}#${index} ${mode}: verify ${JSON.stringify(report.issues.slice(0, 2))}`);
            else totals.survived++;
          } catch (err) {
            problems.push(`${op}#${index} ${mode}: retry failed: ${err instanceof Error ? `${err.name} ${err.message}` : String(err)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
