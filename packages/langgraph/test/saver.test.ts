import * as nodeFs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRepo } from '@ctxgit/commit';
import type { FsLike, Repo } from '@ctxgit/commit';
import { listTree, readCommitObject, readRef } from '@ctxgit/commit/git';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { emptyCheckpoint, uuid6 } from '@langchain/langgraph-checkpoint';
import type { Checkpoint } from '@langchain/langgraph-checkpoint';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll, describe, expect, it } from 'vitest';
import { CtxgitSaver, MissingConfigError, messagesToHistory } from '../src/index.js';
import { versionDir } from '../src/thread-tree.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const kinds: { name: string; open(): Promise<Repo> }[] = [
  { name: 'memfs', open: async () => openRepo({ memory: true, fs: createFsFromVolume(new Volume()) as unknown as FsLike, fsync: false, clock: () => 1_700_000_000_000 }) },
  {
    name: 'disk',
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ctxgit-saver-'));
      dirs.push(dir);
      return openRepo({ dir: join(dir, 'r.git'), clock: () => 1_700_000_000_000 });
    },
  },
];

function checkpoint(values: Record<string, unknown>, versions: Record<string, number>): Checkpoint {
  return { ...emptyCheckpoint(), id: uuid6(-1), channel_values: values, channel_versions: versions };
}

const meta = { source: 'loop' as const, step: 1, parents: {} };

/** `fs` with the targets of its renames (pack files and refs land by a rename) logged into `log`. */
function renamesLogged(fs: FsLike, log: string[]): FsLike {
  const promises = new Proxy(fs.promises, {
    get: (t, k, r) =>
      k === 'rename'
        ? async (from: string, to: string) => {
            log.push(to);
            return t.rename(from, to);
          }
        : (Reflect.get(t, k, r) as unknown),
  });
  return new Proxy(fs, {
    get: (t, k, r) => {
      if (k === 'promises') return promises;
      const v = Reflect.get(t, k, r) as unknown;
      if (k === 'renameSync' && typeof v === 'function') {
        return (from: string, to: string) => {
          log.push(to);
          return (v as (a: string, b: string) => void).call(t, from, to);
        };
      }
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

const logged: { name: string; open(renames: string[]): Promise<Repo> }[] = [
  { name: 'memfs', open: async (renames) => openRepo({ memory: true, fs: renamesLogged(createFsFromVolume(new Volume()) as unknown as FsLike, renames), fsync: false, clock: () => 1_700_000_000_000 }) },
  {
    name: 'disk',
    open: async (renames) => {
      const dir = mkdtempSync(join(tmpdir(), 'ctxgit-saver-'));
      dirs.push(dir);
      return openRepo({ dir: join(dir, 'r.git'), fs: renamesLogged(nodeFs as unknown as FsLike, renames), clock: () => 1_700_000_000_000 });
    },
  },
];

describe.each(logged)('CtxgitSaver.put on $name, one write', (kind) => {
  it("writes the session's turn and the thread's checkpoint as one pack, then moves the session's refs and the thread's", async () => {
    const renames: string[] = [];
    const repo = await kind.open(renames);
    const saver = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const messages: BaseMessage[] = [new HumanMessage({ id: 'q', content: 'hi' })];
    let config = await saver.put({ configurable: { thread_id: 't' } }, checkpoint({ messages }, { messages: 1 }), meta, { messages: 1 });
    for (const [i, m] of [new AIMessage({ id: 'a', content: 'hello' }), new HumanMessage({ id: 'q2', content: 'and?' })].entries()) {
      await repo.settled();
      renames.length = 0;
      messages.push(m);
      config = await saver.put(config, checkpoint({ messages: [...messages] }, { messages: i + 2 }), meta, { messages: i + 2 });
      // what the put renamed into place (the roll-up it starts comes after): one pack, then each ref once
      const landed = renames.filter((to) => to.endsWith('.pack') || to.includes('/refs/')).map((to) => (to.endsWith('.pack') ? 'pack' : to.slice(to.indexOf('/refs/') + 1)));
      expect(landed).toEqual(['pack', 'refs/ctxgit/sessions/t/dag', 'refs/ctxgit/sessions/t/context', 'refs/langgraph/t']);
      // the record names the turn's commit: the session's head's
      expect((await saver.context(config))?.commit).toBe((await (await repo.openSession('t')).commit()).id);
    }
  });
});

describe.each(kinds)('CtxgitSaver on $name', (kind) => {
  it('appends the messages channel to a session, only what is new, and carries the ContextCommit to later checkpoints', async () => {
    const repo = await kind.open();
    const saver = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const q = new HumanMessage({ id: 'q', content: 'list /tmp' });
    const call = new AIMessage({ id: 'a', content: '', tool_calls: [{ id: 'c1', name: 'ls', args: { path: '/tmp' }, type: 'tool_call' }] });
    const result = new ToolMessage({ id: 'r', content: 'a.txt', tool_call_id: 'c1' });
    let config = await saver.put({ configurable: { thread_id: 't/1' } }, checkpoint({ messages: [q, call] }, { messages: 1 }), meta, { messages: 1 });
    const first = await saver.context(config);
    config = await saver.put(config, checkpoint({ messages: [q, call], other: 7 }, { messages: 1, other: 1 }), meta, { other: 1 });
    expect(await saver.context(config)).toEqual(first);
    config = await saver.put(config, checkpoint({ messages: [q, call, result] }, { messages: 2, other: 1 }), meta, { messages: 2 });
    const third = await saver.context(config);
    expect(third?.session).toBe('t%2F1');
    expect(third?.commit).not.toBe(first?.commit);
    const c = await repo.readCommit(third?.commit ?? '');
    expect(c.items.map((i) => i.role)).toEqual(['user', 'assistant', 'tool']);
    const tuple = await saver.getTuple(config);
    expect(tuple?.checkpoint.channel_values).toEqual({ messages: [q, call, result], other: 7 });
    expect((tuple?.checkpoint.channel_values['messages'] as unknown[])[2]).toBeInstanceOf(ToolMessage);
    expect(await repo.listSessions()).toEqual(['t%2F1']);
  });

  it('serializes a message once: later puts of the list name its blob, and read it back the same', async () => {
    const repo = await kind.open();
    const saver = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const dumped: unknown[] = [];
    const dumps = saver.serde.dumpsTyped.bind(saver.serde);
    saver.serde.dumpsTyped = async (value: unknown) => {
      dumped.push(value);
      return dumps(value);
    };
    const messages = [new HumanMessage({ id: 'q', content: 'hi' }), new AIMessage({ id: 'a', content: 'hello' })];
    let config = await saver.put({ configurable: { thread_id: 't' } }, checkpoint({ messages }, { messages: 1 }), meta, { messages: 1 });
    expect(dumped.filter((v) => messages.includes(v as never))).toHaveLength(2);
    dumped.length = 0;
    const next = new HumanMessage({ id: 'q2', content: 'and?' });
    // a message replaced by a new object (same id, new content) is written again
    const edited = new AIMessage({ id: 'a', content: 'hello!' });
    config = await saver.put(config, checkpoint({ messages: [messages[0], edited, next] }, { messages: 2 }), meta, { messages: 2 });
    expect(dumped.filter((v) => v instanceof HumanMessage || v instanceof AIMessage)).toEqual([edited, next]);
    const tuple = await saver.getTuple(config);
    expect(tuple?.checkpoint.channel_values).toEqual({ messages: [messages[0], edited, next] });
  });

  it('serializes only the new messages of a put that follows a read of the thread, as LangGraph reads then puts on each invoke', async () => {
    const repo = await kind.open();
    const all = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? new HumanMessage({ id: `m${i}`, content: `q ${i}` }) : new AIMessage({ id: `m${i}`, content: `a ${i}` })));
    const config = await new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } }).put({ configurable: { thread_id: 't' } }, checkpoint({ messages: all }, { messages: 1 }), meta, { messages: 1 });
    // another saver (a process started since) reads the thread, then puts what it read plus a new message
    const saver = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const read = (await saver.getTuple(config))?.checkpoint.channel_values['messages'] as BaseMessage[];
    expect(read).toEqual(all);
    const dumped: unknown[] = [];
    const dumps = saver.serde.dumpsTyped.bind(saver.serde);
    saver.serde.dumpsTyped = async (value: unknown) => {
      dumped.push(value);
      return dumps(value);
    };
    const next = new HumanMessage({ id: 'new', content: 'and?' });
    const after = await saver.put(config, checkpoint({ messages: [...read, next] }, { messages: 2 }), meta, { messages: 2 });
    expect(dumped.filter((v) => v instanceof HumanMessage || v instanceof AIMessage)).toEqual([next]);
    // the full first chunk is named by its tree, the same in both versions
    const chunk = async (version: number) => (await listTree(repo.git, (await readCommitObject(repo.git, (await readRef(repo.git, 'refs/langgraph/t')) ?? '')).tree, [...versionDir('', 'messages', String(version)), `${version}.list`]))[0]?.oid;
    expect(await chunk(2)).toBe(await chunk(1));
    expect((await new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } }).getTuple(after))?.checkpoint.channel_values).toEqual({ messages: [...all, next] });
  });

  it('stores a long message list in chunks of 256: a put rewrites the chunk that changed, and any saver reads the list back', async () => {
    const repo = await kind.open();
    const saver = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const all = Array.from({ length: 601 }, (_, i) => (i % 2 === 0 ? new HumanMessage({ id: `m${i}`, content: `q ${i}` }) : new AIMessage({ id: `m${i}`, content: `a ${i}` })));
    const chunks = async (version: number) => listTree(repo.git, (await readCommitObject(repo.git, (await readRef(repo.git, 'refs/langgraph/t')) ?? '')).tree, [...versionDir('', 'messages', String(version)), `${version}.list`]);
    let config = await saver.put({ configurable: { thread_id: 't' } }, checkpoint({ messages: all.slice(0, 300) }, { messages: 1 }), meta, { messages: 1 });
    config = await saver.put(config, checkpoint({ messages: all }, { messages: 2 }), meta, { messages: 2 });
    const [one, two] = [await chunks(1), await chunks(2)];
    expect(one.map((e) => [e.path, e.type])).toEqual([['0000', 'tree'], ['0001', 'tree']]);
    expect(two.map((e) => e.path)).toEqual(['0000', '0001', '0002']);
    // the first chunk is whole in both versions: one tree; the second grew
    expect(two[0]?.oid).toBe(one[0]?.oid);
    expect(two[1]?.oid).not.toBe(one[1]?.oid);
    const fresh = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    expect((await fresh.getTuple(config))?.checkpoint.channel_values).toEqual({ messages: all });
    // trimmed at the front by one chunk, the messages of the second chunk come first: its tree (which names them by
    // their old places) is not reused, and the list reads back as put
    config = await saver.put(config, checkpoint({ messages: all.slice(256) }, { messages: 3 }), meta, { messages: 3 });
    const three = await chunks(3);
    expect(three.map((e) => e.oid)).not.toContain(two[1]?.oid);
    const first = await listTree(repo.git, three[0]?.oid ?? '', []);
    expect([first[0]?.path, first.at(-1)?.path]).toEqual(['000000.json', '000255.json']);
    expect((await fresh.getTuple(config))?.checkpoint.channel_values).toEqual({ messages: all.slice(256) });
  });

  it("spreads a namespace's checkpoints and a channel's versions over 256 folders: a put rewrites no folder of them all", async () => {
    const repo = await kind.open();
    const saver = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const tree = async () => (await readCommitObject(repo.git, (await readRef(repo.git, 'refs/langgraph/t')) ?? '')).tree;
    /** The entry counts of the trees in `after` that `before` does not have: what a put wrote. */
    const written = async (before: string, after: string): Promise<number[]> => {
      const seen = new Set<string>();
      const walk = async (oid: string, out: Set<string>): Promise<void> => {
        if (out.has(oid)) return;
        out.add(oid);
        for (const e of await listTree(repo.git, oid, [])) if (e.type === 'tree') await walk(e.oid, out);
      };
      await walk(before, seen);
      const counts: number[] = [];
      const fresh = async (oid: string): Promise<void> => {
        if (seen.has(oid)) return;
        seen.add(oid);
        const entries = await listTree(repo.git, oid, []);
        counts.push(entries.length);
        for (const e of entries) if (e.type === 'tree') await fresh(e.oid);
      };
      await fresh(after);
      return counts;
    };
    const n = 600;
    let config: RunnableConfig = { configurable: { thread_id: 't' } };
    const counters = new Map<string, number>();
    let before = '';
    for (let i = 1; i <= n; i++) {
      if (i === n) before = await tree();
      const c = checkpoint({ counter: i }, { counter: i });
      counters.set(c.id, i);
      config = await saver.put(config, c, meta, { counter: i });
    }
    const counts = await written(before, await tree());
    // the last put wrote its checkpoint, its value and the folders on their paths: none holds all 600 of either
    expect(Math.max(...counts)).toBeLessThanOrEqual(256);
    const root = await listTree(repo.git, await tree(), ['ns_', 'checkpoints']);
    expect(root.length).toBeGreaterThan(200);
    // every checkpoint reads back, the latest without an id, and list gives them newest first
    const ids = [...counters.keys()].sort();
    expect((await saver.getTuple({ configurable: { thread_id: 't' } }))?.config.configurable?.checkpoint_id).toBe(ids.at(-1));
    for (const id of [ids[0], ids[17], ids[333]] as string[]) {
      expect((await saver.getTuple({ configurable: { thread_id: 't', checkpoint_id: id } }))?.checkpoint.channel_values).toEqual({ counter: counters.get(id) });
    }
    const listed: string[] = [];
    for await (const t of saver.list({ configurable: { thread_id: 't' } })) listed.push(String(t.config.configurable?.checkpoint_id));
    expect(listed).toEqual([...ids].reverse());
  });

  it("deletes a thread from LangGraph's view; the same id used again gets a fresh session", async () => {
    const repo = await kind.open();
    const saver = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const put = () => saver.put({ configurable: { thread_id: 't' } }, checkpoint({ messages: [new HumanMessage('hi')] }, { messages: 1 }), meta, { messages: 1 });
    await put();
    await saver.deleteThread('t');
    expect(await saver.getTuple({ configurable: { thread_id: 't' } })).toBeUndefined();
    const again = await put();
    expect((await saver.context(again))?.session).toBe('t.2');
    expect(await repo.listSessions()).toEqual(['t', 't.2']);
  });

  it('continues the session from trimmed messages, moves replaced ones to a fresh session, and records no commit for an empty list', async () => {
    const repo = await kind.open();
    const saver = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const [a, b, c] = [new HumanMessage({ id: 'a', content: 'one' }), new AIMessage({ id: 'b', content: 'two' }), new HumanMessage({ id: 'c', content: 'three' })];
    let config = await saver.put({ configurable: { thread_id: 't' } }, checkpoint({ messages: [a, b] }, { messages: 1 }), meta, { messages: 1 });
    config = await saver.put(config, checkpoint({ messages: [b, c] }, { messages: 2 }), meta, { messages: 2 });
    const trimmed = await saver.context(config);
    expect(trimmed?.session).toBe('t');
    expect((await repo.readCommit(trimmed?.commit ?? '')).items.map((i) => i.role)).toEqual(['user', 'assistant', 'user']);
    config = await saver.put(config, checkpoint({ messages: [new HumanMessage({ id: 'x', content: 'new topic' })] }, { messages: 3 }), meta, { messages: 3 });
    const replaced = await saver.context(config);
    expect(replaced?.session).toBe('t.2');
    expect((await repo.readCommit(replaced?.commit ?? '')).items.map((i) => i.role)).toEqual(['user']);
    config = await saver.put(config, checkpoint({ messages: [] }, { messages: 4 }), meta, { messages: 4 });
    expect(await saver.context(config)).toBeUndefined();
    expect((await saver.getTuple(config))?.checkpoint.channel_values).toEqual({ messages: [] });
  });

  it('keeps every write of tasks that run in parallel, from one saver or from two on the same repository', async () => {
    const repo = await kind.open();
    const one = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const two = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    const config = await one.put({ configurable: { thread_id: 't' } }, checkpoint({}, {}), meta, {});
    await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? one : two).putWrites(config, [['ch', i]], `task-${i}`)));
    const tuple = await two.getTuple(config);
    expect(tuple?.pendingWrites).toEqual(Array.from({ length: 8 }, (_, i) => [`task-${i}`, 'ch', i]));
  });

  it('keeps every checkpoint two savers put on one thread at once, and the greatest id as the latest, whichever lands last', async () => {
    const repo = await kind.open();
    const savers = [new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } }), new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } })];
    // ids out of order: the saver that lands last does not always hold the greatest
    const ids = ['0005', '0002', '0009', '0001', '0007', '0003', '0008', '0004'];
    await Promise.all(
      ids.map((id, i) => (savers[i % 2] as CtxgitSaver).put({ configurable: { thread_id: 't' } }, { ...checkpoint({ counter: i }, { counter: i + 1 }), id }, meta, { counter: i + 1 })),
    );
    const fresh = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    expect((await fresh.getTuple({ configurable: { thread_id: 't' } }))?.config.configurable?.checkpoint_id).toBe('0009');
    const listed: string[] = [];
    for await (const t of fresh.list({ configurable: { thread_id: 't' } })) listed.push(String(t.config.configurable?.checkpoint_id));
    expect(listed).toEqual([...ids].sort().reverse());
    for (const [i, id] of ids.entries()) {
      expect((await fresh.getTuple({ configurable: { thread_id: 't', checkpoint_id: id } }))?.checkpoint.channel_values).toEqual({ counter: i });
    }
  });

  it('refuses a config without thread_id or checkpoint_id with a typed error, before writing', async () => {
    const repo = await kind.open();
    const saver = new CtxgitSaver({ repo, session: { model: 'openai:gpt-4o' } });
    await expect(saver.put({}, checkpoint({}, {}), meta, {})).rejects.toThrow(MissingConfigError);
    await expect(saver.putWrites({ configurable: { thread_id: 't' } }, [['x', 1]], 'task')).rejects.toMatchObject({ code: 'E_LANGGRAPH_MISSING_CONFIG', data: { field: 'checkpoint_id' } });
    expect(await saver.getTuple({ configurable: { thread_id: 't' } })).toBeUndefined();
  });
});

describe('messagesToHistory', () => {
  it('maps LangChain messages to nodes, and leaves other values alone', () => {
    expect(messagesToHistory([new HumanMessage('hi'), new AIMessage('hello')])).toEqual([
      { role: 'user', output: 'hi' },
      { role: 'assistant', output: 'hello' },
    ]);
    expect(messagesToHistory(['not', 'messages'])).toBeUndefined();
    expect(messagesToHistory({ messages: [] })).toBeUndefined();
  });
});
