import {
  BothPredecessorAndCallerError,
  CycleError,
  InvalidArgumentError,
  InvalidEdgeError,
  MemoryNodeStore,
  OutputTooLargeError,
  SessionExistsError,
  UnknownRoleError,
  createSession,
  defaultNodeId,
  writeTranscript,
  type Transcript,
  type TranscriptEntry,
} from '@ctxgit/dag';
import { describe, expect, it } from 'vitest';

const transcript = (entries: TranscriptEntry[], head: number | null = entries.length - 1): Transcript => ({
  format: 'openai-chat',
  entries,
  head,
  skipped: {},
  malformed: [],
  stats: {},
  metadata: {},
});

const ok: TranscriptEntry[] = [
  { role: 'user', output: 'q', createdAt: 5 },
  { role: 'assistant', output: 'a', predecessor: 0 },
  { role: 'tool', name: 'ls', input: {}, output: 'x', caller: 1, createdAt: 9 },
  { role: 'user', output: 'q2', predecessor: 1 },
];

describe('writeTranscript', () => {
  it('writes every entry in one write: seq = index, ids deterministic, createdAt from the entry or the clock', async () => {
    const store = new MemoryNodeStore();
    const w = await writeTranscript(store, 'imp', transcript(ok), { clock: () => 77 });
    const ids = [0, 1, 2, 3].map((i) => defaultNodeId('imp', i));
    expect(w).toEqual({ session: { id: 'imp', head: ids[3], nextSeq: 4, agentRunning: false, version: 1 }, ids });
    expect(await store.getSession('imp')).toEqual(w.session);
    expect(await store.getNode(ids[2] ?? '')).toEqual({ id: ids[2], session: 'imp', seq: 2, createdAt: 9, role: 'tool', name: 'ls', input: {}, output: 'x', caller: ids[1] });
    expect((await store.getNode(ids[1] ?? ''))?.createdAt).toBe(77);
    const empty = await writeTranscript(store, 'empty', transcript([], null));
    expect(empty.session).toMatchObject({ head: null, nextSeq: 0 });
  });

  const refusals: Array<[string, Transcript, new (...a: never[]) => Error]> = [
    ['an oversized output', transcript([...ok, { role: 'user', output: 'x'.repeat(11), predecessor: 3 }]), OutputTooLargeError],
    ['an unknown role', transcript([{ role: 'robot' as never, output: '' }]), UnknownRoleError],
    ['both predecessor and caller', transcript([ok[0] as TranscriptEntry, { role: 'assistant', output: '' }, { role: 'tool', name: 't', output: '', caller: 1, predecessor: 0 }], 1), BothPredecessorAndCallerError],
    ['a self reference', transcript([{ role: 'user', output: '', predecessor: 0 }]), CycleError],
    ['a cycle', transcript([{ role: 'user', output: '', predecessor: 1 }, { role: 'user', output: '', predecessor: 0 }]), CycleError],
    ['a forward reference', transcript([{ role: 'user', output: '', predecessor: 1 }, { role: 'user', output: '' }]), InvalidEdgeError],
    ['a tool predecessor', transcript([...ok, { role: 'user', output: '', predecessor: 2 }]), InvalidEdgeError],
    ['an index out of range', transcript([{ role: 'user', output: '', predecessor: 9 }]), InvalidArgumentError],
    ['a tool head', transcript(ok, 2), InvalidArgumentError],
    ['a head out of range', transcript(ok, 4), InvalidArgumentError],
    ['an entry that is not an object', transcript([null as never]), InvalidArgumentError],
    ['an entry with an unknown field', transcript([{ role: 'user', output: '', reads: [] } as never]), InvalidArgumentError],
  ];
  it.each(refusals)('refuses %s and stores nothing', async (_, t, cls) => {
    const store = new MemoryNodeStore();
    await expect(writeTranscript(store, 'imp', t, { maxOutputBytes: 10 })).rejects.toBeInstanceOf(cls);
    expect(await store.getSession('imp')).toBeUndefined();
    expect([...(await store.rootsOf('imp'))]).toEqual([]);
    expect(await store.getNode(defaultNodeId('imp', 0))).toBeUndefined();
  });

  it('refuses an existing session and a non-transcript', async () => {
    const store = new MemoryNodeStore();
    await createSession(store, 'imp');
    await expect(writeTranscript(store, 'imp', transcript(ok))).rejects.toBeInstanceOf(SessionExistsError);
    await expect(writeTranscript(store, 'other', {} as Transcript)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect([...(await store.listSessions())]).toEqual(['imp']);
  });
});
