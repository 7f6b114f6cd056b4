// Issue 16, "a fast-check property over every public entry point with arbitrary JavaScript values": each call either
// resolves or rejects with a typed ctxgit error, and a refusal leaves the repository byte-identical (no mutating fs
// call at all, and every file's bytes compared every SNAPSHOT_EVERY refusals). 1,000 runs per entry point in CI;
// RELIABILITY_SCALE=10 (npm run reliability:full) makes 10,000.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearImportMarker, incompleteImports, markImport, openRepo } from '../../src/index.js';
import type { FsLike, Repo, Session } from '../../src/index.js';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import { FaultFs } from './fault-fs.js';
import { hostileValue } from './hostile-arbitraries.js';
import { fileSnapshot, isTyped, memStorage, stepClock, writeCounts } from './support.js';

const SCALE = Number(process.env['RELIABILITY_SCALE'] ?? '1');
const RUNS = Math.max(1, Math.round(1000 * SCALE));
const SNAPSHOT_EVERY = 100;

const totals = { runsPerEntryPoint: RUNS, entryPoints: 0, calls: 0, accepted: 0, typedRefusals: 0, untyped: 0, writesOnRefusal: 0, snapshotsCompared: 0 };
afterAll(() => writeCounts('any-value', totals));

/** Values that are not data: each used to escape some entry point as a TypeError or as the caller's own exception. */
function poisonValues(): unknown[] {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic['self'] = cyclic;
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  return [
    Object.create(null),
    Object.assign(Object.create(null), { role: 'user', output: 'x' }),
    Object.defineProperty({}, 'output', { enumerable: true, get: () => { throw new Error('getter'); } }),
    Object.defineProperty({}, 'session', { enumerable: true, get: () => { throw new Error('getter'); } }),
    new Proxy({}, { ownKeys: () => { throw new Error('trap'); }, get: () => { throw new Error('trap'); } }),
    new Proxy({ role: 'user', output: 'x' }, { get: (t, k) => (k === 'output' ? 1n : Reflect.get(t, k)) }),
    revocable.proxy,
    cyclic,
    [cyclic],
    1n,
    Symbol('s'),
    { toString: () => { throw new Error('toString'); } },
    { [Symbol.toPrimitive]: () => { throw new Error('toPrimitive'); } },
  ];
}

/**
 * A generated argument: a hostile value, or the index of a poison value. Poison values are made inside the property
 * (fast-check itself inspects what it generates, and a revoked proxy or a throwing trap would break it).
 */
type Gen = { readonly value: unknown } | { readonly poison: number } | { readonly fields: Readonly<Record<string, Gen>> };
const POISON_COUNT = poisonValues().length;
const anyValue: fc.Arbitrary<Gen> = fc.oneof(
  { weight: 2, arbitrary: hostileValue.map((value) => ({ value })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: POISON_COUNT - 1 }).map((poison) => ({ poison })) },
);

function make(gen: Gen): unknown {
  if ('value' in gen) return gen.value;
  if ('poison' in gen) return poisonValues()[gen.poison];
  return Object.fromEntries(Object.entries(gen.fields).map(([k, v]) => [k, make(v)]));
}

const nodeInput: fc.Arbitrary<Gen> = fc.oneof(
  anyValue,
  fc
    .record(
      {
        role: fc.oneof(fc.constantFrom('user', 'assistant', 'tool', 'system').map((value) => ({ value })), anyValue),
        output: fc.oneof(fc.constant({ value: 'x' }), anyValue),
        name: anyValue,
        input: anyValue,
        caller: anyValue,
        reads: anyValue,
        metadata: anyValue,
      },
      { requiredKeys: [] },
    )
    .map((fields) => ({ fields: fields as Record<string, Gen> })),
);

let repo: Repo;
/** A one-node repository for verifyRepo: an accepted call verifies the whole repository, so keep it small. */
let tiny: Repo;
let chat: Session;
let fs: FsLike;
let gitdir: string;
let counter: FaultFs;
let tinyCounter: FaultFs;

beforeAll(async () => {
  const s = memStorage();
  fs = s.fs;
  gitdir = s.gitdir;
  counter = new FaultFs(s.fs);
  counter.count();
  repo = await openRepo({ memory: true, fs: counter.fs, clock: stepClock(), fsync: false });
  chat = await repo.createSession('chat', { model: 'openai:gpt-4o' });
  const other = await repo.createSession('other', { model: 'openai:gpt-4o' });
  await other.append({ role: 'user', output: 'other' });
  await other.commit();
  await chat.append({ role: 'user', output: 'hello' });
  const a = await chat.append({ role: 'assistant', output: 'hi' });
  await chat.append({ role: 'tool', name: 'ls', output: 'a.txt', caller: a.id });
  await chat.commit();
  const small = memStorage();
  tinyCounter = new FaultFs(small.fs);
  tinyCounter.count();
  tiny = await openRepo({ memory: true, fs: tinyCounter.fs, clock: stepClock(), fsync: false });
  await (await tiny.createSession('t', { model: 'openai:gpt-4o' })).append({ role: 'user', output: 'x' });
});

function mutations(): number {
  return [counter.counts, tinyCounter.counts].reduce((n, c) => n + c.write + c.rename + c.unlink + c.open + c.mkdir, 0);
}

const ENTRY_POINTS: [string, fc.Arbitrary<Gen[]>, (args: unknown[]) => Promise<unknown>][] = [
  ['session.append', fc.tuple(nodeInput), ([v]) => chat.append(v as never)],
  ['repo.createSession', fc.tuple(anyValue, anyValue), ([n, o]) => repo.createSession(n as never, o as never)],
  ['repo.openSession', fc.tuple(anyValue, anyValue), ([n, o]) => repo.openSession(n as never, o as never)],
  ['session.fork', fc.tuple(anyValue, anyValue), ([n, o]) => chat.fork(n as never, o as never)],
  ['session.checkout', fc.tuple(anyValue, anyValue), ([n, o]) => chat.checkout(n as never, o as never)],
  ['session.retry', fc.tuple(anyValue), ([n]) => chat.retry(n as never)],
  ['session.edit', fc.tuple(anyValue, anyValue), ([n, e]) => chat.edit(n as never, e as never)],
  ['session.attach', fc.tuple(anyValue), ([v]) => chat.attach(v as never)],
  ['repo.merge', fc.tuple(anyValue), ([v]) => repo.merge(v as never)],
  ['repo.readCommit', fc.tuple(anyValue), ([v]) => repo.readCommit(v as never)],
  ['session.log', fc.tuple(anyValue), ([v]) => chat.log(v as never)],
  ['session.expand', fc.tuple(anyValue, anyValue), ([k, o]) => chat.expand(k as never, o as never)],
  ['verifyRepo', fc.tuple(anyValue), ([o]) => verifyRepo(tiny, o as never)],
  ['markImport', fc.tuple(anyValue, anyValue), ([n, r]) => markImport(repo, n as never, r as never)],
  ['clearImportMarker', fc.tuple(anyValue), ([n]) => clearImportMarker(repo, n as never)],
  ['incompleteImports', fc.tuple(anyValue), ([r]) => incompleteImports(r as never)],
];

describe('every public entry point, any JavaScript value: typed errors only, nothing written on refusal', () => {
  for (const [name, args, call] of ENTRY_POINTS) {
    it(`${name}: ${RUNS} runs`, async () => {
      totals.entryPoints++;
      let refusals = 0;
      await fc.assert(
        fc.asyncProperty(args, async (values) => {
          totals.calls++;
          for (const c of [counter, tinyCounter]) if (c.seen.length > 10_000) c.seen.splice(0, c.seen.length - 100);
          // what an accepted call before started in the background (pack roll-ups) is done before the count starts
          await Promise.all([repo.settled(), tiny.settled()]);
          const full = refusals % SNAPSHOT_EVERY === 0;
          const before = full ? await fileSnapshot(fs, gitdir) : [];
          const written = mutations();
          const outcome = await Promise.resolve()
            .then(() => call(values.map(make)))
            .then(
              () => undefined,
              (err: unknown) => ({ err }),
            );
          if (outcome === undefined) {
            totals.accepted++;
            return;
          }
          refusals++;
          if (!isTyped(outcome.err)) {
            totals.untyped++;
            const e = outcome.err as { name?: unknown; message?: unknown };
            expect.fail(`${name}: untyped ${String(e?.name)}: ${String(e?.message)}`);
          }
          totals.typedRefusals++;
          if (mutations() !== written) {
            totals.writesOnRefusal++;
            expect.fail(`${name}: a refused call made ${mutations() - written} mutating fs calls`);
          }
          if (full) {
            totals.snapshotsCompared++;
            expect(await fileSnapshot(fs, gitdir)).toEqual(before);
          }
        }),
        { numRuns: RUNS, seed: 16_000 + name.length, endOnFailure: true },
      );
    });
  }

  it('the repository is still valid after everything above', async () => {
    expect((await verifyRepo(repo)).issues.filter((i) => i.severity === 'error')).toEqual([]);
  });
});
