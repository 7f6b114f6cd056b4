import { createFsFromVolume, Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CommitConflictError, openRepo } from '../src/index.js';
import { compareAndSwapRef, listRefs, readCommitObject, readRef } from '../src/git/index.js';
import type { FsLike, HistoryEntry, Repo } from '../src/index.js';
import { FS_KINDS, git } from './helpers.js';

const T0 = 1_700_000_000_000;

/** Every ref and its value. */
async function refs(repo: Repo): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const r of await listRefs(repo.git, 'refs/')) out.set(r, await readRef(repo.git, r));
  return out;
}

/** Files under `objects/`, by path. */
async function objectFiles(fs: FsLike, gitdir: string): Promise<Set<string>> {
  const out = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await fs.promises.readdir(dir)).map(String)) {
      const p = `${dir}/${name}`;
      if ((await fs.promises.stat(p)).isDirectory()) await walk(p);
      else out.add(p.slice(gitdir.length + 1));
    }
  };
  await walk(`${gitdir}/objects`);
  return out;
}

const turn = (i: number) =>
  [
    { role: 'assistant' as const, output: `step ${i}` },
    // keys out of canonical order: the turn's items must read them as the stored nodes give them back
    { role: 'tool' as const, name: 'read_file', input: { path: `f${i}.txt`, encoding: 'utf8' }, output: `line ${i}\n`.repeat(20), caller: 0 },
    { role: 'user' as const, output: `go on ${i}` },
  ] as const;

describe.each(FS_KINDS)('one write per turn ($name)', (kind) => {
  it('appendTurn stores what append × n + commit stores: the same ContextCommit, byte for byte', async () => {
    const a = await kind.open(() => T0);
    const b = await kind.open(() => T0);
    const sa = await a.repo.createSession('s', { model: 'openai:gpt-4o' });
    const sb = await b.repo.createSession('s', { model: 'openai:gpt-4o' });
    await sa.append({ role: 'user', output: 'start' });
    await sb.append({ role: 'user', output: 'start' });
    for (let i = 0; i < 4; i++) {
      const { nodes, commit } = await sa.appendTurn(turn(i));
      const asst = await sb.append(turn(i)[0]);
      const tool = await sb.append({ ...turn(i)[1], caller: asst.id });
      const user = await sb.append(turn(i)[2]);
      const c = await sb.commit();
      expect(nodes).toEqual([asst, tool, user]);
      expect(commit.id).toBe(c.id);
      expect(commit.items).toEqual(c.items);
    }
  });

  it('a turn moves the session DAG ref and its context ref only, once each; objects land in one pack', async () => {
    const { repo, fs, gitdir } = await kind.open();
    const s = await repo.createSession('s', { model: 'openai:gpt-4o' });
    await repo.createSession('other', { model: 'openai:gpt-4o' });
    await s.appendTurn([{ role: 'user', output: 'start' }]);
    const before = await refs(repo);
    const dagBefore = before.get('refs/ctxgit/sessions/s/dag') as string;
    const files = await objectFiles(fs, gitdir);
    const { commit } = await s.appendTurn(turn(1));
    const after = await refs(repo);
    const changed = [...after.keys()].filter((r) => after.get(r) !== before.get(r)).sort();
    expect(changed).toEqual(['refs/ctxgit/sessions/s/context', 'refs/ctxgit/sessions/s/dag']);
    expect(after.get('refs/ctxgit/sessions/s/context')).toBe(commit.id);
    const dag = await readCommitObject(repo.git, after.get('refs/ctxgit/sessions/s/dag') as string);
    expect(dag.parents).toEqual([dagBefore, commit.id]);
    expect(dag.message).toMatch(/^dag: s v\d+ \+3 nodes\n/u);
    expect(await repo.store.commitAt('s', (await s.head()) as string)).toBe(commit.id);
    const added = [...(await objectFiles(fs, gitdir))].filter((f) => !files.has(f));
    // one pack and its index (maintenance may have rolled packs up: then its pack replaces others)
    expect(added.filter((f) => !f.startsWith('pack/') && !f.startsWith('objects/pack/'))).toEqual([]);
    expect(added.length).toBeLessThanOrEqual(2);
    expect(await listRefs(repo.git, 'refs/ctxgit/')).not.toContain('refs/ctxgit/dag');
    if (kind.name === 'disk') expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
  });

  it('appendNew appends a history\'s new entries in one write; with commit, the commit lands in the same write', async () => {
    const { repo, fs, gitdir } = await kind.open(() => T0);
    const plain = await kind.open(() => T0);
    const s = await repo.createSession('s', { model: 'openai:gpt-4o' });
    const p = await plain.repo.createSession('s', { model: 'openai:gpt-4o' });
    const history: HistoryEntry[] = [{ role: 'user', output: 'start' }];
    await s.appendNew(history);
    await p.appendNew(history);
    for (let i = 0; i < 3; i++) {
      const [assistant, tool, user] = turn(i);
      history.push(assistant, { ...tool, caller: history.length }, user);
      const before = await refs(repo);
      const files = await objectFiles(fs, gitdir);
      const request = { format: 'openai-chat' as const, system: 'You read files.' };
      const r = await s.appendNew(history, { commit: { request } });
      const after = await refs(repo);
      const changed = [...after.keys()].filter((ref) => after.get(ref) !== before.get(ref)).sort();
      expect(changed).toEqual(['refs/ctxgit/sessions/s/context', 'refs/ctxgit/sessions/s/dag']);
      expect(after.get('refs/ctxgit/sessions/s/context')).toBe(r.commit.id);
      const added = [...(await objectFiles(fs, gitdir))].filter((f) => !files.has(f));
      expect(added.length).toBeLessThanOrEqual(2);
      // the same nodes and commit as appendNew then commit
      const q = await p.appendNew(history);
      expect(r.matched).toBe(q.matched);
      expect(r.appended).toEqual(q.appended);
      expect(r.commit.id).toBe((await p.commit({ request })).id);
    }
    // nothing new: the head's commit, no write
    const before = await refs(repo);
    const again = await s.appendNew(history, { commit: {} });
    expect(again.appended).toEqual([]);
    expect(again.commit.id).toBe(before.get('refs/ctxgit/sessions/s/context'));
    expect(await refs(repo)).toEqual(before);
    // without commit: one DAG write, no commit
    const more: HistoryEntry[] = [...history, { role: 'assistant', output: 'done' }, { role: 'user', output: 'thanks' }];
    const r = await s.appendNew(more);
    expect(r.commit).toBeUndefined();
    const after = await refs(repo);
    expect([...after.keys()].filter((ref) => after.get(ref) !== before.get(ref))).toEqual(['refs/ctxgit/sessions/s/dag']);
    const dag = await readCommitObject(repo.git, after.get('refs/ctxgit/sessions/s/dag') as string);
    expect(dag.message).toMatch(/^dag: s v\d+ \+2 nodes\n/u);
    if (kind.name === 'disk') expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
  });

  it('appendNew with a commit the rules refuse writes nothing; a bad commit option is refused by name', async () => {
    const { repo } = await kind.open(() => T0);
    const s = await repo.createSession('s', { model: 'openai:gpt-4o', window: 2_000 });
    await s.appendNew([{ role: 'user', output: 'start' }]);
    const before = await refs(repo);
    const big = [{ role: 'user' as const, output: 'start' }, { role: 'assistant' as const, output: 'x '.repeat(4_000) }, { role: 'user' as const, output: 'go on' }];
    await expect(s.appendNew(big, { commit: {} })).rejects.toMatchObject({ code: 'E_RULES_OVER_BUDGET' });
    expect(await refs(repo)).toEqual(before);
    await expect(s.appendNew(big, { commit: { request: { format: 'nope' } } as never })).rejects.toMatchObject({ code: 'E_COMMIT_INVALID_OPTION' });
    await expect(s.appendNew(big, { commit: 'yes' } as never)).rejects.toMatchObject({ code: 'E_COMMIT_INVALID_OPTION' });
    expect(await refs(repo)).toEqual(before);
  });

  it('writers of two sessions never contend: concurrent turns all land', async () => {
    const { repo } = await kind.open();
    const a = await repo.createSession('a', { model: 'openai:gpt-4o' });
    const b = await repo.createSession('b', { model: 'openai:gpt-4o' });
    await Promise.all([a.append({ role: 'user', output: 'a' }), b.append({ role: 'user', output: 'b' })]);
    // each session's turns one after the other, the two sessions at the same time: no conflict, ever
    const run = async (x: typeof a): Promise<number> => {
      for (let i = 0; i < 6; i++) await x.appendTurn(turn(i));
      return (await x.log()).length;
    };
    expect(await Promise.all([run(a), run(b)])).toEqual([6, 6]);
  });

  it('a lone append is durable when it resolves: a new process reads it', async () => {
    const { repo, fs, gitdir } = await kind.open();
    const s = await repo.createSession('s', { model: 'openai:gpt-4o' });
    const n = await s.append({ role: 'user', output: 'kept' });
    const again = await openRepo(kind.name === 'disk' ? { dir: gitdir } : { memory: true, fs });
    expect((await again.store.forSession('s').getNode(n.id))?.output).toBe('kept');
    expect((await (await again.openSession('s')).head())).toBe(n.id);
  });

  it('lone appends leave the roll-up to the commit that ends the turn, or to the 16th lone write in a row', async () => {
    const { repo, fs, gitdir } = await kind.open();
    const s = await repo.createSession('s', { model: 'openai:gpt-4o' });
    await repo.settled();
    const packs = async (): Promise<number> => [...(await objectFiles(fs, gitdir))].filter((f) => f.endsWith('.pack')).length;
    const start = await packs();
    // a pack each, none rolled up (a batch that ends a turn rolls up eight small packs)
    for (let i = 0; i < 15; i++) {
      await s.append({ role: 'user', output: `message ${i}` });
      await repo.settled();
      expect(await packs()).toBe(start + i + 1);
    }
    const c = await s.commit();
    await repo.settled();
    const rolled = await packs();
    expect(rolled).toBeLessThanOrEqual(2);
    // the 16th lone write in a row starts the roll-up itself
    for (let i = 0; i < 16; i++) {
      await s.append({ role: 'user', output: `more ${i}` });
      await repo.settled();
      if (i < 15) expect(await packs()).toBe(rolled + i + 1);
    }
    expect(await packs()).toBeLessThanOrEqual(2);
    // nothing lost to either roll-up
    expect((await s.commit()).items.map((it) => it.blocks)).toContainEqual([{ type: 'text', text: 'more 15' }]);
    expect(await repo.store.commitAt('s', c.headNodeId)).toBe(c.id);
    if (kind.name === 'disk') expect(git(gitdir, 'fsck', '--strict')).toBe('');
  });
});

it('a turn reads its DAG ref once for its reads, and once more under the lock of its write', async () => {
  const inner = createFsFromVolume(new Volume()) as unknown as FsLike;
  const reads: string[] = [];
  const promises = new Proxy(inner.promises, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key !== 'readFile' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (path: string) => {
        reads.push(path);
        return (value as (p: string) => Promise<Uint8Array>).call(target, path);
      };
    },
  });
  const repo = await openRepo({ memory: true, fs: { promises }, clock: () => T0, fsync: false });
  const s = await repo.createSession('s', { model: 'openai:gpt-4o' });
  await s.appendTurn([{ role: 'user', output: 'start' }]);
  for (let i = 1; i <= 3; i++) {
    reads.length = 0;
    await s.appendTurn(turn(i));
    expect(reads.filter((p) => p.endsWith('/refs/ctxgit/sessions/s/dag'))).toHaveLength(2);
  }
});

it('a turn syncs its pack, its index and both ref values before either ref moves; the DAG ref moves first', async () => {
  const inner = createFsFromVolume(new Volume()) as unknown as FsLike;
  const log: string[] = [];
  const name = (path: string): string => path.replace(/^.*\.git\//u, '').replace(/[0-9a-f]{8,}/gu, 'x');
  const promises = new Proxy(inner.promises, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'rename') {
        return async (from: string, to: string) => {
          await (value as (a: string, b: string) => Promise<void>).call(target, from, to);
          log.push(`rename ${name(to)}`);
        };
      }
      if (key !== 'open') return value.bind(target);
      return async (path: string, flags: string) => {
        const handle = (await (value as (p: string, f: string) => Promise<{ datasync(): Promise<void> }>).call(target, path, flags)) as object;
        return new Proxy(handle, {
          get(h, k) {
            const v = Reflect.get(h, k) as unknown;
            if (typeof v !== 'function') return v;
            if (k !== 'datasync') return v.bind(h);
            return async () => {
              await (v as () => Promise<void>).call(h);
              log.push(`sync ${name(path)}`);
            };
          },
        });
      };
    },
  });
  const repo = await openRepo({ memory: true, fs: { promises }, clock: () => T0, fsync: true });
  const s = await repo.createSession('s', { model: 'openai:gpt-4o' });
  await s.appendTurn([{ role: 'user', output: 'start' }]);
  await repo.settled();
  log.length = 0;
  await s.appendTurn(turn(1));
  const at = (entry: string): number => {
    const i = log.findIndex((e) => e.startsWith(entry));
    expect(i, `${entry} in ${log.join(', ')}`).toBeGreaterThanOrEqual(0);
    return i;
  };
  const dagMoved = at('rename refs/ctxgit/sessions/s/dag');
  const contextMoved = at('rename refs/ctxgit/sessions/s/context');
  expect(dagMoved).toBeLessThan(contextMoved);
  // the context ref's value is synced before the DAG ref moves: the two refs' flushes overlap
  for (const synced of ['sync objects/pack/tmp_', 'sync refs/ctxgit/sessions/s/dag~new-', 'sync refs/ctxgit/sessions/s/context~new-']) expect(at(synced)).toBeLessThan(dagMoved);
  // one pack and its index, both in place before the DAG ref moves
  expect(log.slice(0, dagMoved).filter((e) => e.startsWith('sync objects/pack/tmp_'))).toHaveLength(2);
  expect(log.slice(0, dagMoved).filter((e) => e.startsWith('rename objects/pack/pack-'))).toHaveLength(2);
});

it('a turn whose context ref moved under it fails with a typed conflict before its DAG write: nothing is appended', async () => {
  const repo = await openRepo({ memory: true, fs: createFsFromVolume(new Volume()) as unknown as FsLike, clock: () => T0, fsync: false });
  const s = await repo.createSession('s', { model: 'openai:gpt-4o' });
  const history: HistoryEntry[] = [{ role: 'user', output: 'start' }];
  const first = (await s.appendNew(history, { commit: {} })).commit;
  history.push({ role: 'assistant', output: 'hello' }, { role: 'user', output: 'again' });
  const other = (await s.appendNew(history, { commit: {} })).commit;
  const before = await refs(repo);
  history.push({ role: 'assistant', output: 'once more' }, { role: 'user', output: 'and again' });
  const moved = s.appendNew(history, {
    commit: {},
    // another writer moves the context ref back to an older commit after this turn read it
    beforeRefs: async () => compareAndSwapRef(repo.git, 'refs/ctxgit/sessions/s/context', other.id, first.id),
  });
  await expect(moved).rejects.toBeInstanceOf(CommitConflictError);
  const after = await refs(repo);
  expect(after.get('refs/ctxgit/sessions/s/dag')).toBe(before.get('refs/ctxgit/sessions/s/dag'));
  expect(after.get('refs/ctxgit/sessions/s/context')).toBe(first.id);
  // the retry lands
  expect((await s.appendNew(history, { commit: {} })).appended).toHaveLength(2);
});
