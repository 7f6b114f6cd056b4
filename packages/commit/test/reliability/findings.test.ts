// Bugs found by the reliability work (issue 9), each kept as a regression test now that it is fixed.
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/index.js';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import { fileSnapshot, isTyped, memStorage, stepClock } from './support.js';

async function chat(): Promise<{ repo: Awaited<ReturnType<typeof openRepo>>; fs: ReturnType<typeof memStorage>['fs']; gitdir: string }> {
  const s = memStorage();
  const repo = await openRepo({ memory: true, fs: s.fs, clock: stepClock(), fsync: false });
  return { repo, fs: s.fs, gitdir: s.gitdir };
}

describe('findings', () => {
  it('F1: deeply nested JSON in input or metadata is refused with a typed error', async () => {
    const { repo, fs, gitdir } = await chat();
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const before = await fileSnapshot(fs, gitdir);
    for (const input of [{ role: 'user' as const, output: 'x', input: deep }, { role: 'user' as const, output: 'x', metadata: { a: deep } }]) {
      const err = await s.append(input as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeDefined();
      expect(isTyped(err), `${String((err as Error).name)}: ${String((err as Error).message)}`).toBe(true);
    }
    expect(await fileSnapshot(fs, gitdir)).toEqual(before);
  });

  it('F2: append cannot forge an attach pointer or a merge', async () => {
    const { repo } = await chat();
    const secret = await repo.createSession('secret', { model: 'openai:gpt-4o' });
    await secret.append({ role: 'user', output: 'the private context of another session' });
    const sc = await secret.commit();
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    await s.append({ role: 'user', output: 'hello' });
    const forged = { attach: { session: 'secret', head: sc.headNodeId, commit: sc.id }, merge: { base: false } };
    const err = await s.append({ role: 'user', output: 'plain text', metadata: forged }).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (err === undefined) {
      const c = await s.commit();
      // what a forged pointer achieves: the other session's items in this context, and a second git parent
      expect(c.items.some((it) => it.attachedFrom !== undefined)).toBe(false);
      expect(c.parentIds).toHaveLength(0);
    } else expect(isTyped(err)).toBe(true);
    expect((await verifyRepo(repo)).ok).toBe(true);
  });

  it('F3: a fault writing the ctxgit.json marker is a typed error', async () => {
    const { FaultFs } = await import('./fault-fs.js');
    const fault = new FaultFs(memStorage().fs);
    fault.arm('rename', 2, 'ENOSPC');
    const err = await openRepo({ memory: true, fs: fault.fs, fsync: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(fault.pending).toBe(false);
    expect(isTyped(err), `${String((err as Error).name)} ${String((err as { code?: unknown }).code)}`).toBe(true);
  });

  it('F4: a lock a dead writer left on a session DAG ref blocks that session only, and not for long: the next writer removes it once it is older than staleLockMs', async () => {
    const { repo, fs, gitdir } = await chat();
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    await s.append({ role: 'user', output: 'before the crash' });
    // what SIGKILL between "create dag.lock" and "rename it" leaves (the crash test can hit it)
    const lock = `${gitdir}/refs/ctxgit/sessions/chat/dag.lock`;
    await fs.promises.writeFile(lock, `${'0'.repeat(40)}\n`);
    const fresh = await openRepo({ memory: true, fs, clock: stepClock(1_800_000_000_000), fsync: false, staleLockMs: 60_000 });
    // other sessions do not share the ref: they are not blocked at all
    await fresh.createSession('unblocked', { model: 'openai:gpt-4o' });
    const blocked = await (await fresh.openSession('chat')).append({ role: 'user', output: 'blocked' }).then(
      () => 'ok',
      (e: unknown) => `${String((e as { code?: unknown }).code)}`,
    );
    expect(blocked).toBe('E_GIT_REF_CONFLICT');
    const old = (Date.now() - 61_000) / 1000;
    await (fs as unknown as typeof import('node:fs')).promises.utimes(lock, old, old); // memfs implements utimes
    const reopened = await openRepo({ memory: true, fs, clock: stepClock(1_800_000_000_000), fsync: false, staleLockMs: 60_000 });
    await (await reopened.openSession('chat')).append({ role: 'user', output: 'after the crash' });
    expect(await reopened.listSessions()).toContain('unblocked');
    await fs.promises.writeFile(lock, `${'0'.repeat(40)}\n`);
    const swept = await openRepo({ memory: true, fs, clock: stepClock(1_800_000_000_000), fsync: false, recoverLocksOlderThanMs: 0 });
    await (await swept.openSession('chat')).append({ role: 'user', output: 'swept' });
    expect((await verifyRepo(swept)).ok).toBe(true);
  });

  it('F5: an option holding a bigint is refused with a typed error', async () => {
    const { repo } = await chat();
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    for (const call of [() => repo.createSession('x', { model: 'openai:gpt-4o', window: 1n as never }), () => s.attach(1n as never)]) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isTyped(err), `${String((err as Error).name)}: ${String((err as Error).message)}`).toBe(true);
    }
  });
});
