import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { openGit } from '../src/git/open-git.js';
import { recoverStaleLocks } from '../src/git/recover-stale-locks.js';
import { GitNodeStore } from '../src/store/git-node-store.js';
import { fsckStrict, tempRepoDir } from './git-fixtures.js';

const WORKER = fileURLToPath(new URL('./fixtures/store-worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Run {
  readonly acks: string[];
  readonly done: Promise<number | null>;
  kill(): void;
}

function worker(gitdir: string, session: string, count: number | 'forever', onAck?: (n: number) => void): Run {
  const child = spawn(process.execPath, ['--conditions=@ctxgit/source', '--import', 'tsx', WORKER, gitdir, session, String(count)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const acks: string[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('ack ')) {
        acks.push(line.slice(4));
        onAck?.(acks.length);
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code === 0 || code === null ? code : (console.error(stderr), code))));
  return { acks, done, kill: () => child.kill('SIGKILL') };
}

/** Every node id reachable in session `s` by walking children from its roots. */
async function sessionNodes(store: GitNodeStore, s: string): Promise<string[]> {
  const out: string[] = [];
  const todo = [...(await store.rootsOf(s))];
  while (todo.length > 0) {
    const id = todo.shift() ?? '';
    out.push(id);
    todo.push(...(await store.childrenOf(id)));
  }
  return out;
}

describe('GitNodeStore with several processes', () => {
  test('four processes, two sessions: no append lost or duplicated, fsck clean', async () => {
    const dir = await tempRepoDir();
    await openGit({ dir });
    const runs = [worker(dir, 'shared', 15), worker(dir, 'shared', 15), worker(dir, 'own-a', 15), worker(dir, 'own-b', 15)];
    expect(await Promise.all(runs.map((r) => r.done))).toEqual([0, 0, 0, 0]);
    const store = new GitNodeStore(await openGit({ dir }));
    const shared = await sessionNodes(store, 'shared');
    expect(shared.sort()).toEqual([...(runs[0]?.acks ?? []), ...(runs[1]?.acks ?? [])].sort());
    expect(new Set(shared).size).toBe(30);
    expect((await store.getSession('shared'))?.version).toBe(31);
    expect((await sessionNodes(store, 'own-a')).sort()).toEqual([...(runs[2]?.acks ?? [])].sort());
    expect((await sessionNodes(store, 'own-b')).sort()).toEqual([...(runs[3]?.acks ?? [])].sort());
    expect(fsckStrict(await openGit({ dir }))).toEqual({ status: 0, problems: [] });
  });

  test('a writer killed with SIGKILL at random moments never loses an acknowledged append', async () => {
    const dir = await tempRepoDir();
    await openGit({ dir });
    const acked: string[] = [];
    // deterministic "random" kill points: after 3, 7, 1, 12, 5 acknowledged appends (plus whatever is in flight)
    for (const after of [3, 7, 1, 12, 5]) {
      const run = worker(dir, 'victim', 'forever', (n) => {
        if (n === after) run.kill();
      });
      await run.done;
      acked.push(...run.acks);
      const ctx = await openGit({ dir });
      await recoverStaleLocks(ctx, { olderThanMs: 0 }); // the only writer is dead
      expect(fsckStrict(ctx)).toEqual({ status: 0, problems: [] });
      const present = new Set(await sessionNodes(new GitNodeStore(ctx), 'victim'));
      for (const id of acked) expect(present.has(id)).toBe(true);
    }
    expect(acked.length).toBeGreaterThanOrEqual(28);
  });
});
