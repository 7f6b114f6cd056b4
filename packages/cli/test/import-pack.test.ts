// Issue 17, item 4: `ctxgit import` writes a whole import as one pack (replayed in memory, then one pack and the
// sessions' refs), with the ids a replay straight into the repository on disk gives.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openRepo } from '@ctxgit/commit';
import { listRefs, readRef } from '@ctxgit/commit/git';
import { describe, expect, it } from 'vitest';
import { replayAll } from '../src/commands/import.js';
import { readTranscripts } from '../src/read-transcripts.js';
import { firstLines, run, SIMPLE_TRAJ, TAU, tempDir } from './helpers.js';

async function sessionRefs(dir: string): Promise<Record<string, string | null>> {
  const repo = await openRepo({ dir, fsync: false });
  const out: Record<string, string | null> = {};
  for (const ref of await listRefs(repo.git, 'refs/')) out[ref] = await readRef(repo.git, ref);
  return out;
}

function git(dir: string, args: readonly string[], input?: Buffer): string {
  const r = spawnSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', ...(input === undefined ? {} : { input }), env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** The packs, and the objects reachable from a ref that no pack holds (the import markers' objects, unreachable once cleared, may stay loose). */
function objectFiles(dir: string): { packs: string[]; reachableNotPacked: string[] } {
  const packDir = join(dir, 'objects', 'pack');
  const packs = readdirSync(packDir).filter((f) => f.endsWith('.pack'));
  const packed = new Set<string>();
  for (const p of packs) {
    for (const line of git(dir, ['show-index'], readFileSync(join(packDir, p.replace(/\.pack$/u, '.idx')))).split('\n')) {
      const oid = line.split(' ')[1];
      if (oid !== undefined) packed.add(oid);
    }
  }
  const reachable = git(dir, ['rev-list', '--objects', '--all']).split('\n').map((l) => l.split(' ')[0] ?? '').filter((o) => o !== '');
  return { packs, reachableNotPacked: reachable.filter((o) => !packed.has(o)) };
}

describe('ctxgit import writes one pack', () => {
  const cases = [
    { name: 'a SWE-agent trajectory', file: (): string => SIMPLE_TRAJ, format: 'swe-agent', session: 'traj' },
    {
      name: 'a file of three conversations',
      file: (): string => {
        const f = join(tempDir(), 'airline.jsonl');
        writeFileSync(f, firstLines(TAU, 3));
        return f;
      },
      format: 'openai-chat',
      session: 'airline',
    },
  ];
  for (const c of cases) {
    it(`${c.name}: one pack holds every reachable object, and every ref as a replay straight into the repository on disk sets it`, async () => {
      const file = c.file();
      const packed = join(tempDir(), 'packed.git');
      const r = await run(['import', file, '--format', c.format, '--session', c.session, '--repo', packed, '--no-fsync', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(objectFiles(packed)).toEqual({ packs: [expect.stringMatching(/^pack-[0-9a-f]{40}\.pack$/u)], reachableNotPacked: [] });
      expect(git(packed, ['fsck', '--strict', '--no-dangling', '--no-progress'])).toBe('');

      // the path before the one-pack import: every node and commit written to the repository on disk as it is replayed
      const direct = join(tempDir(), 'direct.git');
      const repo = await openRepo({ dir: direct, fsync: false });
      const named = readTranscripts(readFileSync(file, 'utf8'), file, c.format, c.session);
      await replayAll(repo, named, { model: 'openai:gpt-4o', clockStep: 60 }, { tick: () => undefined, done: () => undefined }, '');
      const want = await sessionRefs(direct);
      expect(Object.keys(want).length).toBeGreaterThan(named.length * 2);
      expect(await sessionRefs(packed)).toEqual(want);
    });
  }

  it('a re-run of a finished import refuses the taken session and changes nothing', async () => {
    const dir = join(tempDir(), 'resume.git');
    const args = ['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'traj', '--repo', dir, '--no-fsync', '--json'];
    expect((await run(args)).code).toBe(0);
    const full = await sessionRefs(dir);
    const again = await run(args);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('already exists');
    expect(await sessionRefs(dir)).toEqual(full);
  });
});
