// Issue 16, "a corruption test": every object of a sample repository (blobs, trees, commits, reachable from every
// ref through its whole history, as `git rev-list --objects --all` lists them) is damaged one at a time, truncated,
// zeroed, byte-flipped or deleted; verifyRepo must flag every single case. CI takes a seeded sample of 48 objects and
// rotates the four ways over them; RELIABILITY_SCALE >= 4 (the full run) tries all four ways on every object.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll, describe, expect, it } from 'vitest';
import { openRepo } from '../../src/index.js';
import { openGit } from '../../src/git/index.js';
import type { FsLike } from '../../src/index.js';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import { cleanTemps, fsck, seeded, stepClock, tempDir, writeCounts } from './support.js';

afterAll(cleanTemps);

const SCALE = Number(process.env['RELIABILITY_SCALE'] ?? '1');
const WAYS = ['truncated', 'zeroed', 'byte-flipped', 'deleted'] as const;
type Way = (typeof WAYS)[number];

const totals = { objectsInRepo: 0, objects: 0, blobs: 0, trees: 0, commits: 0, planted: 0, flagged: 0, missed: 0, ways: SCALE >= 4 ? 4 : 1 };
afterAll(() => writeCounts('corruption', totals));

/** A small repository with every layout feature: tool calls, a fold, a fork, an attach, a merge, a verified token. */
async function sample(dir: string): Promise<void> {
  const clock = stepClock();
  const repo = await openRepo({ dir, clock, fsync: false });
  const chat = await repo.createSession('chat', { model: 'openai:gpt-4o', budget: 1200, clock });
  let folded = false;
  for (let i = 0; i < 12 && !folded; i++) {
    await chat.append({ role: 'user', output: `question ${i}: ${'why '.repeat(25)}` });
    const a = await chat.append({ role: 'assistant', output: `answer ${i}` });
    await chat.append({ role: 'tool', name: 'read_file', input: { path: `f${i}.txt` }, output: `line ${i}\n`.repeat(20), caller: a.id });
    await chat.append({ role: 'assistant', output: `done ${i}` });
    folded = (await chat.commit()).items.some((it) => it.state === 'summary');
  }
  expect(folded).toBe(true);
  const alt = await chat.fork('alt');
  await alt.append({ role: 'user', output: 'alternative' });
  await alt.commit();
  const research = await repo.createSession('research', { model: 'openai:gpt-4o', clock });
  await research.append({ role: 'user', output: 'topic' });
  await research.commit();
  await chat.attach({ session: 'research' });
  await chat.append({ role: 'user', output: 'use it' });
  await chat.commit();
  await repo.merge({ target: 'chat', peers: ['alt'], instruction: 'combine' });
  expect((await verifyRepo(repo, { record: true })).ok).toBe(true);
  // ctxgit writes packs; each object is damaged on its own as a loose file, so the packs are exploded with git
  const packs = join(dir, 'objects', 'pack');
  for (const name of readdirSync(packs).filter((f) => f.endsWith('.pack'))) {
    const pack = readFileSync(join(packs, name));
    rmSync(join(packs, name));
    rmSync(join(packs, name.replace(/\.pack$/u, '.idx')));
    execFileSync('git', ['--git-dir', dir, 'unpack-objects', '-q'], { input: pack });
  }
}

function filesOf(root: string, rel = ''): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  for (const name of readdirSync(join(root, rel))) {
    const path = rel === '' ? name : `${rel}/${name}`;
    if (statSync(join(root, path)).isDirectory()) out.push(...filesOf(root, path));
    else out.push([path, readFileSync(join(root, path))]);
  }
  return out;
}

function damage(bytes: Buffer, way: Way, at: number): Buffer | null {
  if (way === 'deleted') return null;
  if (way === 'truncated') return bytes.subarray(0, Math.floor(bytes.length / 2));
  if (way === 'zeroed') return Buffer.alloc(bytes.length);
  const copy = Buffer.from(bytes);
  const i = at % copy.length;
  copy[i] = (copy[i] ?? 0) ^ 0xff;
  return copy;
}

describe('verifyRepo flags every damaged object of every ref\'s whole history', () => {
  it('truncated, zeroed, byte-flipped or deleted: 100 % flagged', async () => {
    const dir = join(tempDir(), 'sample.git');
    await sample(dir);
    expect(fsck(dir)).toEqual([]);
    const listed = execFileSync('git', ['--git-dir', dir, 'rev-list', '--objects', '--all'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.slice(0, 40));
    const types = execFileSync('git', ['--git-dir', dir, 'cat-file', '--batch-check'], { input: `${listed.join('\n')}\n`, encoding: 'utf8' })
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split(' ')[1] ?? '');
    const files = filesOf(dir);
    const missed: string[] = [];
    const pick = seeded(1616);
    const order = listed.map((_, k) => k);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(pick() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
    const sampled = SCALE >= 4 ? listed.map((_, k) => k) : order.slice(0, Math.round(48 * SCALE)).sort((a, b) => a - b);
    totals.objectsInRepo = listed.length;
    for (const k of sampled) {
      const oid = listed[k] ?? '';
      const type = types[k] ?? '';
      totals.objects++;
      if (type === 'blob') totals.blobs++;
      else if (type === 'tree') totals.trees++;
      else if (type === 'commit') totals.commits++;
      const target = `objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
      const ways = SCALE >= 4 ? WAYS : [WAYS[k % WAYS.length] as Way];
      for (const way of ways) {
        const vol = new Volume();
        const fs = createFsFromVolume(vol) as unknown as FsLike;
        for (const [path, bytes] of files) {
          const full = `/ctxgit.git/${path}`;
          await fs.promises.mkdir(full.slice(0, full.lastIndexOf('/')), { recursive: true });
          const content = path === target ? damage(bytes, way, k * 7 + 3) : bytes;
          if (content !== null) await fs.promises.writeFile(full, content);
        }
        totals.planted++;
        const report = await verifyRepo(await openGit({ memory: true, fs }));
        if (report.ok) {
          totals.missed++;
          missed.push(`${type} ${oid} ${way}`);
        } else totals.flagged++;
      }
    }
    expect(totals.objectsInRepo).toBeGreaterThan(100);
    expect(totals.planted).toBe(sampled.length * (SCALE >= 4 ? 4 : 1));
    expect(missed).toEqual([]);
  });
});
