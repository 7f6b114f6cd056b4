import { Volume, createFsFromVolume } from 'memfs';
import { describe, expect, it } from 'vitest';
import type { ContextItem } from '@ctxgit/rules';
import { canonicalJson } from '@ctxgit/dag';
import { CommitError, openRepo, UnknownItemError, verifyRepo } from '../src/index.js';
import { readBlob } from '../src/git/index.js';
import type { ContextCommit, FsLike, Repo, Session } from '../src/index.js';
import { FS_KINDS, git, stepClock } from './helpers.js';

async function longChat(repo: Repo): Promise<Session> {
  const s = await repo.createSession('long', { model: 'openai:gpt-4o', budget: 1500, clock: stepClock() });
  for (let i = 0; i < 40; i++) {
    await s.append({ role: 'user', output: `Question ${i}: tell me about the number ${i} in a few words, please, with detail.` });
    await s.commit();
    await s.append({ role: 'assistant', output: `Answer ${i}: the number ${i} is ${i % 2 === 0 ? 'even' : 'odd'} and comes after ${i - 1}.` });
  }
  await s.append({ role: 'user', output: 'Done.' });
  await s.commit();
  return s;
}

describe.each(FS_KINDS)('expand on $name', (kind) => {
  it('returns the folded originals byte for byte, verified by their blob ids', async () => {
    const { repo } = await kind.open();
    const s = await longChat(repo);
    const c = await s.commit();
    const summaries = c.items.filter((i) => i.state === 'summary');
    expect(summaries.length).toBeGreaterThan(0);
    // The live list holds what the model sees: folded items live under their summary.
    expect(c.items.some((i) => i.state === 'summarized')).toBe(false);
    expect((await s.log()).some((e) => e.summary.folded > 0)).toBe(true);
    const summary = summaries[0];
    if (summary === undefined) throw new Error('no summary');
    const { originals, commit } = await s.expand(summary.key);
    expect(commit).toBe(c.id);
    expect(originals.map((o) => o.key)).toEqual(summary.folded);
    for (const o of originals) {
      const node = await repo.store.getNode(o.node.id);
      expect(o.node).toEqual(node);
      expect(o.oid).toBe(await repo.store.nodeObjectIn(o.node.session, o.node.id));
      expect(o.text).toBe(new TextDecoder().decode(await readBlob(repo.git, o.oid)));
      expect(o.text).toBe(canonicalJson(node));
    }
    for (const k of summary.folded ?? []) expect(c.items.some((i) => i.key === k)).toBe(false);
  });

  it('refuses keys that are not summaries', async () => {
    const { repo } = await kind.open();
    const s = await longChat(repo);
    const c = await s.commit();
    const full = c.items.find((i) => i.state !== 'summary');
    await expect(s.expand(full?.key ?? '')).rejects.toBeInstanceOf(UnknownItemError);
    await expect(s.expand('nope')).rejects.toMatchObject({ code: 'E_COMMIT_UNKNOWN_ITEM' });
  });
});

describe.each(FS_KINDS)('nested summaries on $name', (kind) => {
  it('a fold that absorbs a summary leaves its originals and their blobs as they were; expand walks the nesting', async () => {
    const { repo, gitdir } = await kind.open();
    const s = await repo.createSession('nest', { model: 'openai:gpt-4o', budget: 1000, clock: stepClock() });
    const commits: ContextCommit[] = [];
    let outer: ContextItem | undefined;
    for (let i = 0; i < 120 && outer === undefined; i++) {
      await s.append({ role: 'user', output: `Question ${i}: tell me about the number ${i} in a few words, please, with detail.` });
      const c = await s.commit();
      commits.push(c);
      outer = c.items.find((it) => it.state === 'summary' && it.folded?.some((k) => k.startsWith('sm_')) === true);
      await s.append({ role: 'assistant', output: `Answer ${i}: the number ${i} is ${i % 2 === 0 ? 'even' : 'odd'} and comes after ${i - 1}.` });
    }
    if (outer === undefined) throw new Error('no fold nested a summary');
    const [before, after] = commits.slice(-2) as [ContextCommit, ContextCommit];
    const nestedKey = outer.folded?.find((k) => k.startsWith('sm_')) ?? '';
    // The absorbed summary was visible one turn before; now it and its originals live under the outer summary only.
    const nested = before.items.find((it) => it.key === nestedKey);
    expect(nested?.state).toBe('summary');
    expect(after.items.some((it) => it.key === nestedKey)).toBe(false);
    if (kind.name === 'disk') {
      // Its tree (what it folded) is the very tree object of the commit before: reused by oid, not rewritten.
      const treeAt = (commit: string): string => {
        const path = git(gitdir, 'ls-tree', '-r', '-d', '--name-only', commit).split('\n').find((l) => l.endsWith(`-${nestedKey}`)) ?? '';
        return git(gitdir, 'rev-parse', `${commit}:${path}`).trim();
      };
      expect(treeAt(after.id)).toBe(treeAt(before.id));
      // Plain git reads every item blob as pretty-printed JSON, one field per line.
      const blob = git(gitdir, 'ls-tree', '-r', '--name-only', after.id).split('\n').find((l) => l.endsWith(`-${nestedKey}.json`)) ?? '';
      const text = git(gitdir, 'show', `${after.id}:${blob}`);
      expect(text.startsWith('{\n  "blocks": [\n')).toBe(true);
      // It is the blob the summary had in the live list the turn before: named by oid, not written again.
      expect(JSON.parse(text)).toMatchObject({ key: nestedKey, state: 'summary' });
      const liveBlob = git(gitdir, 'ls-tree', '-r', '--name-only', before.id).split('\n').find((l) => l.endsWith(`-${nestedKey}.json`)) ?? '';
      expect(git(gitdir, 'rev-parse', `${after.id}:${blob}`)).toBe(git(gitdir, 'rev-parse', `${before.id}:${liveBlob}`));
      // One width for every item and summary path, live or folded: git lists them in order.
      const paths = git(gitdir, 'ls-tree', '-r', '--name-only', after.id, 'items/').split('\n').filter((l) => l !== '');
      for (const p of paths) for (const seg of p.split('/').slice(3)) expect(seg).toMatch(/^\d{9}-/);
      git(gitdir, 'fsck', '--strict', '--no-dangling');
    }
    // Expanding the outer summary returns every original behind it, through the absorbed one, verified.
    const expanded = await s.expand(outer.key);
    const inner = await s.expand(nestedKey);
    expect(inner.originals.map((o) => o.key)).toEqual(nested?.folded);
    const at = expanded.originals.findIndex((o) => o.key === nested?.folded?.[0]);
    expect(expanded.originals.map((o) => o.key).slice(at, at + inner.originals.length)).toEqual(nested?.folded);
    expect(expanded.originals.every((o) => !o.key.startsWith('sm_'))).toBe(true);
    for (const o of expanded.originals) expect(o.node).toEqual(await repo.store.getNode(o.node.id));
    const report = await verifyRepo(repo);
    expect(report.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe('expand verification', () => {
  it('a damaged original is reported as a typed error, never returned', async () => {
    const fs = createFsFromVolume(new Volume()) as unknown as FsLike;
    const repo = await openRepo({ memory: true, fs, clock: stepClock(), fsync: false });
    const s = await longChat(repo);
    const summary = (await s.commit()).items.find((i) => i.state === 'summary');
    const { originals } = await s.expand(summary?.key ?? '');
    const victim = originals[0]?.oid ?? '';
    // the original is packed (readers look in packs first): bytes of its entry in the pack are flipped, as damage on
    // storage would; the pack index (v2) gives the entry's offset
    const packDir = `${repo.git.gitdir}/objects/pack`;
    let damaged = 0;
    for (const idxName of (await fs.promises.readdir(packDir)).map(String).filter((n) => n.endsWith('.idx'))) {
      const idx = Buffer.from(await fs.promises.readFile(`${packDir}/${idxName}`));
      const count = idx.readUInt32BE(8 + 255 * 4);
      const names = 8 + 256 * 4;
      for (let i = 0; i < count; i++) {
        if (idx.toString('hex', names + i * 20, names + i * 20 + 20) !== victim) continue;
        const offset = idx.readUInt32BE(names + count * 24 + i * 4);
        const packPath = `${packDir}/${idxName.replace(/\.idx$/, '.pack')}`;
        const pack = Buffer.from(await fs.promises.readFile(packPath));
        for (let b = offset + 2; b < Math.min(offset + 12, pack.length - 20); b++) pack[b] = (pack[b] as number) ^ 0xff;
        await fs.promises.writeFile(packPath, pack);
        damaged++;
      }
    }
    expect(damaged).toBe(1);
    const reopened = await openRepo({ memory: true, fs, clock: stepClock(), fsync: false });
    const again = await reopened.openSession('long');
    const err = await again.expand(summary?.key ?? '').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommitError);
    expect(['E_GIT_CORRUPT', 'E_COMMIT_VERIFY_FAILED']).toContain((err as CommitError).code);
  });
});
