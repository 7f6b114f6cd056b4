import { Volume, createFsFromVolume } from 'memfs';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { foldedOriginals, type ContextItem } from '@ctxgit/rules';
import { canonicalJson, CommitError, openRepo, readBlob, UnknownItemError, verifyRepo } from '../src/index.js';
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
    expect(c.items.some((i) => i.state === 'summarized')).toBe(true);
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
    // the summary sits before its folded run in the item order
    const idx = c.items.findIndex((i) => i.key === summary.key);
    expect(c.items[idx + 1]?.key).toBe(summary.folded?.[0]);
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
    let nested: ContextItem | undefined;
    for (let i = 0; i < 120 && nested === undefined; i++) {
      await s.append({ role: 'user', output: `Question ${i}: tell me about the number ${i} in a few words, please, with detail.` });
      const c = await s.commit();
      commits.push(c);
      nested = c.items.find((it) => it.state === 'summarized' && it.folded !== undefined);
      await s.append({ role: 'assistant', output: `Answer ${i}: the number ${i} is ${i % 2 === 0 ? 'even' : 'odd'} and comes after ${i - 1}.` });
    }
    if (nested === undefined) throw new Error('no fold nested a summary');
    const [before, after] = commits.slice(-2) as [ContextCommit, ContextCommit];
    const outer = after.items.find((it) => it.key === nested.mergedInto);
    expect(outer?.state).toBe('summary');
    expect(outer?.folded?.[0]).toBe(nested.key);
    // The absorbed summary was visible one turn before; its originals are unchanged, in the items and in git.
    expect(before.items.find((it) => it.key === nested.key)).toEqual({ ...nested, state: 'summary', reason: 'fold', mergedInto: undefined });
    for (const k of nested.folded ?? []) expect(after.items.find((it) => it.key === k)).toEqual(before.items.find((it) => it.key === k));
    if (kind.name === 'disk') {
      const changed = git(gitdir, 'diff-tree', '-r', '--name-only', before.id, after.id).split('\n').filter((l) => l !== '');
      for (const k of nested.folded ?? []) expect(changed.some((p) => p.endsWith(`-${k}.json`))).toBe(false);
      expect(changed.some((p) => p.endsWith(`-${nested.key}.json`))).toBe(true);
    }
    // Expanding the outer summary returns every original behind it, through the absorbed one, verified.
    const expanded = await s.expand(outer?.key ?? '');
    expect(expanded.originals.map((o) => o.key)).toEqual(foldedOriginals(after.items, outer?.key ?? '').map((it) => it.key));
    expect(expanded.originals.map((o) => o.key).slice(0, nested.folded?.length)).toEqual(nested.folded);
    for (const o of expanded.originals) expect(o.node).toEqual(await repo.store.getNode(o.node.id));
    expect((await s.expand(nested.key)).originals.map((o) => o.key)).toEqual(nested.folded);
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
    const path = `${repo.git.gitdir}/objects/${victim.slice(0, 2)}/${victim.slice(2)}`;
    const forged = Buffer.from('{"forged":true}');
    // the original is packed: a forged loose copy, which readers try first, stands for damage on storage
    await fs.promises.mkdir(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    await fs.promises.writeFile(path, deflateSync(Buffer.concat([Buffer.from(`blob ${forged.length}\0`), forged])));
    const reopened = await openRepo({ memory: true, fs, clock: stepClock(), fsync: false });
    const again = await reopened.openSession('long');
    const err = await again.expand(summary?.key ?? '').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommitError);
    expect(['E_GIT_CORRUPT', 'E_COMMIT_VERIFY_FAILED']).toContain((err as CommitError).code);
  });
});
