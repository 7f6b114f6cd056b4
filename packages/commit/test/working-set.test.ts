import { describe, expect, it } from 'vitest';
import { render } from '@ctxgit/render';
import { openRepo, verifyRepo } from '../src/index.js';
import { readCommitObject } from '../src/git/index.js';
import { readTree } from '../src/git/read-tree.js';
import type { FsFileHandleLike, FsLike, Repo } from '../src/index.js';
import type { GitContext } from '../src/git/index.js';
import type { ContextItem } from '@ctxgit/rules';
import { loadFolds } from '../src/store/layout/fold-tree.js';
import { readStoredCommit } from '../src/store/read-stored-commit.js';
import { addTreeObjects } from './git-fixtures.js';
import { FS_KINDS, git, stepClock } from './helpers.js';

/** A chat at a small budget: it folds, and folds summaries into later ones. */
async function chat(repo: Repo, turns: number): Promise<void> {
  const s = await repo.createSession('ws', { model: 'openai:gpt-4o', budget: 1000, clock: stepClock() });
  for (let i = 0; i < turns; i++) {
    await s.append({ role: 'user', output: `Question ${i}: tell me about the number ${i} in a few words, please, with detail.` });
    await s.commit();
    await s.append({ role: 'assistant', output: `Answer ${i}: the number ${i} is ${i % 2 === 0 ? 'even' : 'odd'} and comes after ${i - 1}.` });
  }
  await s.append({ role: 'user', output: 'Done.' });
  await s.commit();
}

/** Every object under the summaries' trees of a commit tree (`items/<5>/<2>/<order key>-<summary key>/…`): the history. */
async function history(ctx: GitContext, tree: string): Promise<Set<string>> {
  const out = new Set<string>();
  const items = (await readTree(ctx, tree)).find((e) => e.path === 'items');
  for (const top of items === undefined ? [] : await readTree(ctx, items.oid))
    for (const mid of await readTree(ctx, top.oid)) for (const leaf of await readTree(ctx, mid.oid)) if (leaf.type === 'tree') await addTreeObjects(ctx, leaf.oid, out);
  return out;
}

/** `fs` with the bytes read from pack files (whole, or at a position through a handle) added up in `n.bytes`. */
function packBytesCounted(fs: FsLike, n: { bytes: number }): FsLike {
  const p = fs.promises;
  const handle = (h: FsFileHandleLike): FsFileHandleLike => ({
    writeFile: (d) => h.writeFile(d),
    datasync: () => h.datasync(),
    close: () => h.close(),
    ...(h.read === undefined ? {} : { read: async (b: Uint8Array, o: number, l: number, at: number) => {
      const r = await (h.read as NonNullable<FsFileHandleLike['read']>).call(h, b, o, l, at);
      n.bytes += r.bytesRead;
      return r;
    } }),
  });
  const promises = new Proxy(p, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key === 'readFile') return async (path: string) => {
        const out = await p.readFile(path);
        if (path.endsWith('.pack')) n.bytes += out.length;
        return out;
      };
      if (key === 'open') return async (path: string, flags: string) => {
        const h = await p.open(path, flags);
        return path.endsWith('.pack') ? handle(h) : h;
      };
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { promises };
}

/** A cold start of a chat of `turns` turns: the objects it reads, the bytes it reads from pack files, and the repository's pack bytes. */
async function coldStart(kind: (typeof FS_KINDS)[number], turns: number): Promise<{ objects: number; packBytesRead: number; packBytes: number; live: number }> {
  const { repo, fs, gitdir } = await kind.open();
  await chat(repo, turns);
  await repo.settled(); // the writer's roll-up done: the cold start reads the packs it left, not ones it is replacing
  const n = { bytes: 0 };
  const read = new Set<string>();
  const counted = packBytesCounted(fs, n);
  const cold = await openRepo({ ...(kind.name === 'disk' ? { dir: gitdir } : { memory: true as const }), fs: counted, clock: stepClock(), fsync: false, onObjectRead: (oid) => void read.add(oid) });
  const c = await (await cold.openSession('ws')).commit();
  render(c, { provider: 'openai-chat' });
  const dir = `${gitdir}/objects/pack`;
  let packBytes = 0;
  for (const f of (await fs.promises.readdir(dir)).map(String)) if (f.endsWith('.pack')) packBytes += (await fs.promises.readFile(`${dir}/${f}`)).length;
  return { objects: read.size, packBytesRead: n.bytes, packBytes, live: c.items.length };
}

describe.each(FS_KINDS)('the working set on $name', (kind) => {
  it('a cold start reads from the packs what the live items need, not the packs: 6 times the history, the same reads', async () => {
    const short = await coldStart(kind, 15);
    const long = await coldStart(kind, 90);
    expect(long.packBytes).toBeGreaterThan(4 * short.packBytes);
    expect(long.objects).toBeLessThan(1.5 * short.objects * Math.max(1, long.live / short.live));
    // bytes come in 16 KiB blocks of whichever packs hold the live objects (3 to 7 packs here, as the roll-ups fall):
    // they may grow by a few blocks, never with the history
    expect(long.packBytesRead / short.packBytesRead).toBeLessThan((0.5 * long.packBytes) / short.packBytes);
  });

  it('a cold start reads the live items only, never the history behind the summaries; the live list stays bounded', async () => {
    const { repo, fs, gitdir } = await kind.open();
    await chat(repo, 60);
    const latest = await (await repo.openSession('ws')).commit();
    expect(latest.foldedItems ?? 0).toBeGreaterThan(latest.items.length);
    expect(latest.items.some((it) => it.state === 'summarized')).toBe(false);
    // A fresh repository object over the same storage: open, find the latest commit, render it.
    const read = new Set<string>();
    const cold = await openRepo({ ...(kind.name === 'disk' ? { dir: gitdir } : { memory: true as const }), fs, clock: stepClock(), fsync: false, onObjectRead: (oid) => void read.add(oid) });
    const again = await (await cold.openSession('ws')).commit();
    expect(again.id).toBe(latest.id);
    render(again, { provider: 'openai-chat' });
    const behind = await history(repo.git, (await readCommitObject(repo.git, latest.id)).tree);
    expect(behind.size).toBeGreaterThan(latest.foldedItems ?? 0);
    expect([...read].filter((oid) => behind.has(oid))).toEqual([]);
    // O(live): the live items' blobs, their trees, the session's refs and records, and a handful more.
    expect(read.size).toBeLessThan(2 * again.items.length + 40);
    if (kind.name === 'disk') git(gitdir, 'fsck', '--strict', '--no-dangling');
  });
});

describe('what a fold reads of the summaries it absorbs', () => {
  it('loadFolds reads one level and notes the nested trees; deep reads every level, the same items', async () => {
    const { repo } = await (FS_KINDS[0] as (typeof FS_KINDS)[number]).open();
    await chat(repo, 60);
    const latest = await (await repo.openSession('ws')).commit();
    const stored = await readStoredCommit(repo.git, latest.id);
    // a live summary that nests summaries: one level reads its own items only
    let key: string | undefined;
    for (const [k] of stored.foldTrees) {
      const into = new Map<string, readonly ContextItem[]>();
      expect(await loadFolds(repo.git, k, new Map(stored.foldTrees), into, false)).toBe(true);
      if ((into.get(k) ?? []).some((it) => it.folded !== undefined)) key = k;
      expect([...into.keys()]).toEqual([k]);
    }
    expect(key).toBeDefined();
    const k = key as string;
    const trees = new Map(stored.foldTrees);
    const one = new Map<string, readonly ContextItem[]>();
    await loadFolds(repo.git, k, trees, one, false);
    const nested = (one.get(k) ?? []).filter((it) => it.folded !== undefined).map((it) => it.key);
    expect(nested.length).toBeGreaterThan(0);
    for (const n of nested) expect(trees.has(n)).toBe(true);
    // the next level, asked for by key as the rules ask, and the whole nesting at once
    for (const n of nested) await loadFolds(repo.git, n, trees, one, false);
    const deep = new Map<string, readonly ContextItem[]>();
    await loadFolds(repo.git, k, new Map(stored.foldTrees), deep, true);
    expect(deep.size).toBeGreaterThan(1);
    for (const [n, items] of one) expect(deep.get(n)).toEqual(items);
    expect(await loadFolds(repo.git, 'sm_absent', new Map(), new Map(), false)).toBe(false);
  });
});

describe.each(FS_KINDS)('what a fold writes on $name', (kind) => {
  it('a summary tree names the blobs its items had in the live list; read back, each is summarized into it', async () => {
    const { repo, gitdir } = await kind.open();
    const s = await repo.createSession('ws', { model: 'openai:gpt-4o', budget: 1000, clock: stepClock() });
    await s.append({ role: 'system', output: 'Answer in a few words.' });
    let before = await readStoredCommit(repo.git, (await s.commit()).id);
    let named = 0;
    for (let i = 0; i < 60; i++) {
      await s.append({ role: 'user', output: `Question ${i}: tell me about the number ${i} in a few words, please, with detail.` });
      const after = await readStoredCommit(repo.git, (await s.commit()).id);
      for (const [k, tree] of after.foldTrees) {
        if (before.foldTrees.get(k) === tree) continue;
        const into = new Map<string, readonly ContextItem[]>();
        await loadFolds(repo.git, k, new Map(after.foldTrees), into, false);
        const entries = (await readTree(repo.git, tree)).filter((e) => e.type === 'blob');
        for (const [n, it] of (into.get(k) ?? []).entries()) {
          expect(it).toMatchObject({ state: 'summarized', reason: 'folded', mergedInto: k });
          const live = before.entries.get(it.key);
          if (live === undefined) continue;
          // the same blob as in the live list before, and the same item once read as folded
          expect(entries[n]?.oid).toBe(live.oid);
          expect(it).toEqual({ ...live.item, state: 'summarized', reason: 'folded', mergedInto: k });
          named++;
        }
      }
      before = after;
      await s.append({ role: 'assistant', output: `Answer ${i}: the number ${i} is ${i % 2 === 0 ? 'even' : 'odd'}.` });
    }
    expect(named).toBeGreaterThan(20);
    expect((await verifyRepo(repo)).issues).toEqual([]);
    await repo.settled();
    if (kind.name === 'disk') git(gitdir, 'fsck', '--strict', '--no-dangling');
  });
});

describe('a merge of summaries in a session that made them', () => {
  /** One turn of a long chat: a question with a tool result the answer uses, so folds carry briefs of tool work. */
  const turn = (i: number) => [
    { role: 'user' as const, output: `Question ${i}: what does record rec_${i}_x hold? Look it up, please, with detail.` },
    { role: 'assistant' as const, output: `Looking up rec_${i}_x.` },
    { role: 'tool' as const, name: 'lookup', input: { id: `rec_${i}_x` }, output: JSON.stringify({ id: `rec_${i}_x`, owner: `user_${i % 7}_k`, amount: i * 13, note: 'x'.repeat(200 + (i % 5) * 40) }), caller: 1 },
  ];

  it('reads none of the history under them, and commits what a cold session commits (same ids)', async () => {
    const warmReads = new Set<string>();
    const warmRepo = await openRepo({ memory: true, clock: stepClock(), fsync: false, onObjectRead: (oid) => void warmReads.add(oid) });
    const coldReads = new Set<string>();
    const coldRepo = await openRepo({ memory: true, clock: stepClock(), fsync: false, onObjectRead: (oid) => void coldReads.add(oid) });
    const warm = await warmRepo.createSession('ws', { model: 'openai:gpt-4o', budget: 1500, clock: stepClock() });
    await coldRepo.createSession('ws', { model: 'openai:gpt-4o', budget: 1500, clock: stepClock() });
    let merges = 0;
    let coldHistoryReads = 0;
    let warmHistoryReads = 0;
    for (let i = 0; i < 80; i++) {
      // what the live summaries folded: the history a merge of them would read
      const before = i === 0 ? undefined : await readStoredCommit(coldRepo.git, (await (await coldRepo.openSession('ws')).commit()).id);
      const under = new Set<string>();
      for (const tree of before?.foldTrees.values() ?? []) for (const e of await readTree(coldRepo.git, tree)) under.add(e.oid);
      warmReads.clear();
      const w = await warm.appendTurn(turn(i));
      // the cold side opens the session afresh for every turn: nothing held, what a merge needs is read from the packs
      coldReads.clear();
      const c = await (await coldRepo.openSession('ws')).appendTurn(turn(i));
      expect(c.commit.id).toBe(w.commit.id);
      if (w.commit.items.some((it) => it.reason === 'fold_summaries' && before?.commit.items.some((b) => b.key === it.key) === false)) {
        merges++;
        coldHistoryReads += [...coldReads].filter((oid) => under.has(oid)).length;
        warmHistoryReads += [...warmReads].filter((oid) => under.has(oid)).length;
      }
    }
    expect(merges).toBeGreaterThan(0);
    expect(coldHistoryReads).toBeGreaterThan(0);
    expect(warmHistoryReads).toBe(0);
  });
});
