import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloneRepo, openRepo, RemoteError, RemoteUnreachableError } from '../../src/index.js';
import type { Repo } from '../../src/index.js';
import { stepClock, tempDir } from '../helpers.js';
import { fsck, git, startGitServer } from './git-server.js';
import type { GitServer } from './git-server.js';

/** Lock files left under a directory. */
function locks(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...locks(path));
    else if (name.endsWith('.lock')) out.push(path);
  }
  return out;
}

/** Every ref of the server names a commit the server has (no ref half-updated or pointing at a missing object). */
function refsWhole(gitdir: string): void {
  for (const line of git(gitdir, ['for-each-ref', '--format=%(objectname) %(refname)']).trim().split('\n')) {
    const [oid] = line.split(' ');
    expect(git(gitdir, ['cat-file', '-t', oid ?? '']).trim()).toBe('commit');
  }
  expect(locks(join(gitdir, 'refs'))).toEqual([]);
}

async function turn(repo: Repo, text: string): Promise<void> {
  const s = await repo.openSession('chat');
  await s.append({ role: 'user', output: `question ${text}` });
  await s.commit();
  await s.append({ role: 'assistant', output: `answer ${text}` });
}

async function outputsOnServer(server: GitServer): Promise<string[]> {
  const check = await cloneRepo({ dir: join(tempDir(), 'check.git'), fsync: false, remote: { url: server.url } });
  const out: string[] = [];
  for (let id = (await (await check.openSession('chat')).head()) ?? undefined; id !== undefined; ) {
    const node = await check.store.getNode(id);
    out.unshift(node?.output ?? '(missing)');
    id = node?.predecessor;
  }
  return out;
}

describe('the git server dies in the middle of a push', () => {
  let server: GitServer;
  beforeAll(async () => {
    server = await startGitServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  test.each(['request', 'response'] as const)('killed after the %s: a typed retryable error, no acknowledged turn lost, no half-updated ref, the next sync succeeds', async (when) => {
    const remote = { url: server.url, name: `fault-${when}` };
    const repo = await openRepo({ dir: join(tempDir(), 'backend.git'), fsync: false, clock: stepClock(), remote });
    if (when === 'request') await repo.createSession('chat', { model: 'openai:gpt-4o' });
    await turn(repo, `${when} 1`);
    await repo.sync(remote, { session: 'chat' }); // acknowledged
    const acknowledged = await outputsOnServer(server);
    expect(acknowledged.slice(-2)).toEqual([`question ${when} 1`, `answer ${when} 1`]);

    await turn(repo, `${when} 2`);
    server.failNextPush(when);
    const failed = await repo.sync(remote, { session: 'chat', maxAttempts: 1 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(RemoteUnreachableError);
    expect((failed as RemoteError).retryable).toBe(true);
    await server.exited();
    refsWhole(server.gitdir);
    expect(fsck(server.gitdir).status).toBe(0);
    // the local work is kept while the server is away
    expect((await repo.store.getNode((await (await repo.openSession('chat')).head()) ?? ''))?.output).toBe(`answer ${when} 2`);

    await server.restart();
    const onServer = await outputsOnServer(server);
    expect(onServer.slice(0, acknowledged.length)).toEqual(acknowledged); // nothing acknowledged was lost
    const synced = await repo.sync(remote, { session: 'chat' });
    expect(synced.reapplied).toBe(false);
    expect(await outputsOnServer(server)).toEqual([...acknowledged, `question ${when} 2`, `answer ${when} 2`]);
    refsWhole(server.gitdir);
    expect(fsck(server.gitdir).status).toBe(0);
  });
});
