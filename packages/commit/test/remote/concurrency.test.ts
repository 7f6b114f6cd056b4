import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cloneRepo, openRepo } from '../../src/index.js';
import type { Repo } from '../../src/index.js';
import { tempDir } from '../helpers.js';
import { runBackend } from './backends.js';
import type { BackendRun } from './backends.js';
import { fsck, startGitServer } from './git-server.js';
import type { GitServer } from './git-server.js';

/** Turns per backend: 50 in a full run (`CTXGIT_REMOTE_TURNS=50`), few in CI (each sync is several HTTP round trips to a CGI). */
const TURNS = Number(process.env['CTXGIT_REMOTE_TURNS'] ?? 2);

/** The outputs along a session's head chain, oldest first, and each node's predecessor. */
async function chain(repo: Repo, session: string): Promise<{ output: string; id: string; predecessor: string | undefined }[]> {
  const out: { output: string; id: string; predecessor: string | undefined }[] = [];
  for (let id = (await (await repo.openSession(session)).head()) ?? undefined; id !== undefined; ) {
    const node = await repo.store.getNode(id);
    if (node === undefined) throw new Error(`missing node ${id}`);
    out.unshift({ output: node.output, id, predecessor: node.predecessor });
    id = node.predecessor;
  }
  return out;
}

describe.each([2, 4, 8])('%i backend processes through one git server', (backends) => {
  let server: GitServer;
  beforeAll(async () => {
    server = await startGitServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  test.each(['shared', 'separate'] as const)(`${TURNS} turns each on %s sessions: no acknowledged turn lost, no corruption, every conflict typed and resolved`, async (mode) => {
    const seed = await openRepo({ dir: join(tempDir(), 'seed.git'), fsync: false });
    const sessions = mode === 'shared' ? ['shared'] : Array.from({ length: backends }, (_, i) => `own-${i}`);
    for (const s of sessions) await seed.createSession(s, { model: 'openai:gpt-4o' });
    for (const s of sessions) await seed.sync({ url: server.url }, { session: s });

    const runs: BackendRun[] = await Promise.all(
      Array.from({ length: backends }, (_, i) => runBackend(server.url, join(tempDir(), `b${i}.git`), sessions[mode === 'shared' ? 0 : i] ?? '', TURNS, `p${i}`)),
    );
    for (const r of runs) {
      expect(r.errors).toEqual([]);
      expect(r.exitCode).toBe(0);
      expect(r.acks).toEqual(Array.from({ length: TURNS }, (_, i) => i));
    }
    expect(fsck(server.gitdir).status).toBe(0);

    const check = await cloneRepo({ dir: join(tempDir(), 'check.git'), fsync: false, remote: { url: server.url } });
    expect(fsck(check.git.gitdir).status).toBe(0);
    let nodes = 0;
    for (const s of sessions) {
      const along = await chain(check, s);
      nodes += along.length;
      const outputs = along.map((n) => n.output);
      // every acknowledged turn is on the session's line exactly once, its answer right after its question
      for (const r of runs.filter((_, i) => mode === 'shared' || sessions[i] === s)) {
        for (const i of r.acks) {
          const q = outputs.indexOf(`${r.tag} question ${i}`);
          expect(q, `${r.tag} question ${i} in ${s}`).toBeGreaterThanOrEqual(0);
          expect(outputs.lastIndexOf(`${r.tag} question ${i}`)).toBe(q);
          expect(outputs[q + 1]).toBe(`${r.tag} answer ${i}`);
          // re-applied exactly: the nodes kept the ids their backend gave them
          expect(along[q]?.id.startsWith(`${r.tag}-`)).toBe(true);
          expect(along[q + 1]?.id.startsWith(`${r.tag}-`)).toBe(true);
        }
      }
      // the remote's latest ContextCommit holds the whole line
      const latest = await (await check.openSession(s)).commit();
      expect(latest.items.map((i) => i.key)).toEqual(along.map((n) => n.id));
    }
    expect(nodes).toBe(backends * TURNS * 2);
    const conflicts = runs.reduce((n, r) => n + r.conflicts, 0);
    process.stderr.write(`remote concurrency: ${backends} backends x ${TURNS} turns, ${mode}: ${backends * TURNS} acknowledged turns, 0 lost, ${conflicts} conflicts resolved by sync\n`);
  }, Math.max(3_600_000, TURNS * backends * 300_000)); // a hung run still ends; a full run (50 turns x 8 shared: ~400 syncs) gets hours on a loaded machine
});
