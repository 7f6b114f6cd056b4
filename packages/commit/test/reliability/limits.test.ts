// Issue 16, items 2 and 5: what append accepts can never make a later commit fail; any JavaScript value is refused
// with a typed error and nothing written; session names that would merge or display as another are refused.
import { MAX_FIELD_BYTES, MAX_NAME_LENGTH } from '@ctxgit/dag';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/index.js';
import type { Repo, Session } from '../../src/index.js';
import { fileSnapshot, isTyped, memStorage, stepClock } from './support.js';

async function fresh(): Promise<{ repo: Repo; chat: Session; snapshot: () => Promise<string[]> }> {
  const s = memStorage();
  const repo = await openRepo({ memory: true, fs: s.fs, clock: stepClock(), fsync: false });
  const chat = await repo.createSession('chat', { model: 'openai:gpt-4o' });
  return { repo, chat, snapshot: () => fileSnapshot(s.fs, s.gitdir) };
}

async function refusal(call: () => Promise<unknown>): Promise<unknown> {
  return call().then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('limits at append: nothing accepted makes a later commit fail', () => {
  it('a tool input of exactly MAX_FIELD_BYTES of JSON is accepted and commits; one byte more, or 17 MB, is refused typed', async () => {
    const { chat, snapshot } = await fresh();
    await chat.append({ role: 'user', output: 'read the big file' });
    const a = await chat.append({ role: 'assistant', output: 'calling' });
    const before = await snapshot();
    for (const size of [MAX_FIELD_BYTES - 1, 17 * 1024 * 1024]) {
      const err = await refusal(() => chat.append({ role: 'tool', name: 'read', caller: a.id, input: 'x'.repeat(size), output: 'ok' }));
      expect(err).toMatchObject({ code: 'E_DAG_FIELD_TOO_LARGE', data: { field: 'input', limit: MAX_FIELD_BYTES } });
    }
    expect(await snapshot()).toEqual(before);
    // the string's JSON is its length plus two quotes
    await chat.append({ role: 'tool', name: 'read', caller: a.id, input: 'x'.repeat(MAX_FIELD_BYTES - 2), output: 'ok' });
    await chat.append({ role: 'assistant', output: 'read it' });
    const c = await chat.commit();
    // the node is in the commit: live, or folded under a summary (the live list does not hold folded originals)
    const live = c.items.some((it) => it.sourceNodeId === a.id);
    const underSummary = async (): Promise<boolean> => {
      for (const it of c.items.filter((x) => x.state === 'summary')) if ((await chat.expand(it.key, { commit: c.id })).originals.some((o) => o.node.id === a.id)) return true;
      return false;
    };
    expect(live || (await underSummary())).toBe(true);
    await chat.append({ role: 'user', output: 'and now?' });
    expect((await chat.commit()).items.length).toBe(c.items.length + 1);
  });

  it('metadata, name and reads are bounded too; the next commit works', async () => {
    const { chat, snapshot } = await fresh();
    await chat.append({ role: 'user', output: 'hi' });
    const before = await snapshot();
    const big = await refusal(() => chat.append({ role: 'user', output: 'x', metadata: { blob: 'y'.repeat(MAX_FIELD_BYTES) } }));
    expect(big).toMatchObject({ code: 'E_DAG_FIELD_TOO_LARGE', data: { field: 'metadata' } });
    const a = await chat.append({ role: 'assistant', output: 'calling' });
    const mid = await snapshot();
    const name = await refusal(() => chat.append({ role: 'tool', name: 'n'.repeat(MAX_NAME_LENGTH + 1), caller: a.id, output: 'x' }));
    expect(name).toMatchObject({ code: 'E_DAG_FIELD_TOO_LARGE', data: { field: 'name' } });
    expect(await snapshot()).toEqual(mid);
    expect(before).not.toEqual(mid);
    await chat.append({ role: 'tool', name: 'n'.repeat(MAX_NAME_LENGTH), caller: a.id, output: 'x' });
    expect((await chat.commit()).items.length).toBe(3);
  });
});

/** Values that used to escape as TypeError, or as the caller's own exception. */
function poison(): [string, unknown][] {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic['self'] = cyclic;
  const throwing = Object.defineProperty({}, 'x', {
    enumerable: true,
    get() {
      throw new Error('getter');
    },
  });
  const trap = new Proxy({}, {
    ownKeys() {
      throw new Error('trap');
    },
  });
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  return [
    ['null-prototype object', Object.create(null)],
    ['getter that throws', throwing],
    ['proxy whose trap throws', trap],
    ['revoked proxy', revocable.proxy],
    ['cyclic object', cyclic],
    ['BigInt', 1n],
    ['symbol', Symbol('s')],
    ['function', () => 1],
  ];
}

describe('any JavaScript value at append is a typed error and writes nothing', () => {
  it('in role, caller, reads, name, input, metadata, output, the whole input and the session name', async () => {
    const { repo, chat, snapshot } = await fresh();
    const u = await chat.append({ role: 'user', output: 'q' });
    const a = await chat.append({ role: 'assistant', output: 'a' });
    const before = await snapshot();
    let tried = 0;
    for (const [label, value] of poison()) {
      const shapes: [string, () => Promise<unknown>][] = [
        ['role', () => chat.append({ role: value, output: 'x' } as never)],
        ['caller', () => chat.append({ role: 'tool', name: 't', caller: value, output: 'x' } as never)],
        ['reads[0]', () => chat.append({ role: 'user', output: 'x', reads: [value] } as never)],
        ['reads', () => chat.append({ role: 'user', output: 'x', reads: value } as never)],
        ['name', () => chat.append({ role: 'tool', name: value, caller: a.id, output: 'x' } as never)],
        ['input', () => chat.append({ role: 'tool', name: 't', caller: a.id, input: value, output: 'x' } as never)],
        ['input.deep', () => chat.append({ role: 'tool', name: 't', caller: a.id, input: { k: [value] }, output: 'x' } as never)],
        ['metadata', () => chat.append({ role: 'user', output: 'x', metadata: value } as never)],
        ['metadata.key', () => chat.append({ role: 'user', output: 'x', metadata: { k: value } } as never)],
        ['output', () => chat.append({ role: 'user', output: value } as never)],
        ['input object', () => chat.append(value as never)],
        ['createSession name', () => repo.createSession(value as never, { model: 'openai:gpt-4o' })],
        ['openSession name', () => repo.openSession(value as never)],
        ['fork name', () => chat.fork(value as never)],
        ['checkout', () => chat.checkout(value as never)],
      ];
      for (const [where, call] of shapes) {
        const err = await refusal(call);
        tried++;
        // a null-prototype object or a cyclic object is plain JSON-ish in input/metadata positions; those may be stored
        if (err === undefined) continue;
        expect(isTyped(err), `${label} as ${where}: ${String((err as Error).name)} ${String((err as Error).message)}`).toBe(true);
      }
    }
    // the values that cannot be JSON were all refused (a null-prototype object is a valid empty JSON object)
    expect(tried).toBe(poison().length * 15);
    const after = await snapshot();
    // only null-prototype `{}` inputs/metadata may have been stored: the DAG grew by those appends, nothing else
    expect((await repo.store.getSession('chat'))?.head).not.toBe(u.id);
    // (pack files are left out: maintenance rolls them up, so there may be fewer of them)
    const outsidePacks = (files: readonly string[]): number => files.filter((f) => !f.includes('/objects/pack/')).length;
    expect(outsidePacks(after)).toBeGreaterThanOrEqual(outsidePacks(before));
    expect((await chat.commit()).items.length).toBeGreaterThan(1);
  });
});

describe('session names', () => {
  it('refuses a name differing from an existing one only by case, in createSession, importSession and fork', async () => {
    const { repo, chat, snapshot } = await fresh();
    await chat.append({ role: 'user', output: 'hi' });
    const before = await snapshot();
    for (const call of [() => repo.createSession('Chat', { model: 'openai:gpt-4o' }), () => repo.importSession('CHAT', { messages: [] } as never, { model: 'openai:gpt-4o' }), () => chat.fork('cHat')]) {
      const err = await refusal(call);
      expect(err).toMatchObject({ code: 'E_COMMIT_SESSION_EXISTS', data: { existing: 'chat' } });
      expect((err as Error).message).toContain('only by case');
    }
    expect(await snapshot()).toEqual(before);
    await repo.createSession('chat-2', { model: 'openai:gpt-4o' });
  });

  it('refuses names with bidirectional control characters', async () => {
    const { repo, snapshot } = await fresh();
    const before = await snapshot();
    for (const c of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069']) {
      const err = await refusal(() => repo.createSession(`invoice${c}txt.exe`, { model: 'openai:gpt-4o' }));
      expect(isTyped(err)).toBe(true);
      expect((err as Error).message).toContain('bidirectional');
    }
    expect(await snapshot()).toEqual(before);
  });
});
