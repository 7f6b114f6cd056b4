import { importClaudeCode, importOpenAIChat, importSweAgentTraj } from '@ctxgit/dag';
import type { Transcript } from '@ctxgit/dag';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRepo } from '../../src/index.js';
import type { FsLike, Repo, Session } from '../../src/index.js';
import { verifyRepo } from '../../src/api/verify/verify-repo.js';
import { HOSTILE_STRINGS, hostileNodeInput, hostileString, hostileValue, protoJson } from './hostile-arbitraries.js';
import { FaultFs } from './fault-fs.js';
import { fileSnapshot, isTyped, memStorage, stepClock, writeCounts } from './support.js';

const tried: Record<string, number> = {};
const totals = { inputsTried: 0, typedRejections: 0, accepted: 0, untypedErrors: 0, writesOnRejection: 0, hangs: 0 };
afterAll(() => writeCounts('hostile', { ...totals, ...Object.fromEntries(Object.entries(tried).map(([k, v]) => [`tried.${k}`, v])) }));

const HANG_MS = 10_000;
const RUNS = 100;
/** Every this many attempts the whole repository (paths and bytes) is also compared before/after. */
const FULL_SNAPSHOT_EVERY = 10;

function mutations(): number {
  const c = counter.counts;
  return c.write + c.rename + c.unlink + c.open + c.mkdir;
}

let repo: Repo;
let fs: FsLike;
/** Counts the repository's fs operations: a rejected call must not have made a single mutating one. */
let counter: FaultFs;
let gitdir: string;
let chat: Session;
let commitId: string;

beforeAll(async () => {
  const s = memStorage();
  fs = s.fs;
  counter = new FaultFs(s.fs);
  counter.count();
  gitdir = s.gitdir;
  repo = await openRepo({ memory: true, fs: counter.fs, clock: stepClock(), fsync: false });
  chat = await repo.createSession('chat', { model: 'openai:gpt-4o' });
  const other = await repo.createSession('other', { model: 'openai:gpt-4o' });
  await other.append({ role: 'user', output: 'other context' });
  await other.commit();
  await chat.append({ role: 'user', output: 'hello' });
  const a = await chat.append({ role: 'assistant', output: 'hi' });
  await chat.append({ role: 'tool', name: 'ls', output: 'a.txt', caller: a.id });
  commitId = (await chat.commit()).id;
});

/**
 * Runs one hostile call: it must resolve, or reject with a typed ctxgit error having written nothing; it must not
 * hang. Returns the problem, or undefined.
 */
async function attempt(entry: string, call: () => unknown): Promise<string | undefined> {
  tried[entry] = (tried[entry] ?? 0) + 1;
  if (counter.seen.length > 10_000) counter.seen.splice(0, counter.seen.length - 100);
  totals.inputsTried++;
  const full = totals.inputsTried % FULL_SNAPSHOT_EVERY === 0;
  // what an accepted call before started in the background (pack roll-ups) is done before the count starts
  await repo.settled();
  const before = full ? await fileSnapshot(fs, gitdir) : [];
  const written = mutations();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => (timer = setTimeout(() => resolve('hang'), HANG_MS)));
  let outcome: { ok: true } | { ok: false; err: unknown } | 'hang';
  try {
    outcome = await Promise.race([Promise.resolve().then(call).then(() => ({ ok: true as const }), (err: unknown) => ({ ok: false as const, err })), hang]);
  } finally {
    clearTimeout(timer);
  }
  if (outcome === 'hang') {
    totals.hangs++;
    return `${entry}: no answer after ${HANG_MS} ms`;
  }
  if (outcome.ok) {
    totals.accepted++;
    return undefined;
  }
  if (!isTyped(outcome.err)) {
    totals.untypedErrors++;
    const e = outcome.err as { name?: unknown; message?: unknown };
    return `${entry}: untyped ${String(e?.name)}: ${String(e?.message).slice(0, 200)}`;
  }
  totals.typedRejections++;
  const code = (outcome.err as { code: string }).code;
  if (mutations() !== written) {
    totals.writesOnRejection++;
    const ops = counter.seen.slice(-40).filter((o) => ['write', 'rename', 'unlink', 'open', 'mkdir'].includes(o.op));
    return `${entry}: rejected (${code}) after ${mutations() - written} mutating fs calls: ${ops.slice(0, 3).map((o) => `${o.op} ${o.path}`).join(', ')}`;
  }
  const after = full ? await fileSnapshot(fs, gitdir) : [];
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    totals.writesOnRejection++;
    return `${entry}: rejected (${code}) but wrote ${after.filter((l) => !before.includes(l)).slice(0, 3).join(', ')}`;
  }
  return undefined;
}

/** Runs a fast-check property collecting problems instead of shrinking through slow repositories. */
async function sweep<T>(arb: fc.Arbitrary<T>, seed: number, body: (value: T) => Promise<(string | undefined)[]>): Promise<string[]> {
  const problems: string[] = [];
  await fc.assert(
    fc.asyncProperty(arb, async (value) => {
      for (const p of await body(value)) if (p !== undefined) problems.push(p);
    }),
    { seed, numRuns: RUNS, endOnFailure: true },
  );
  return problems;
}

function prototypeClean(): void {
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
}

describe('hostile input against every public entry point of @ctxgit/commit and the importers', () => {
  it('append: typed error or stored, never a crash, a hang or a partial write', async () => {
    const problems = await sweep(hostileNodeInput, 11, async (input) => [await attempt('append', () => chat.append(input as never))]);
    expect(problems).toEqual([]);
    prototypeClean();
  });

  it('session, branch and ref names: createSession, openSession, fork, importSession, attach, merge', async () => {
    const transcript = importOpenAIChat([{ role: 'user', content: 'hi' }])[0] as Transcript;
    const problems = await sweep(fc.oneof(hostileString, hostileValue), 12, async (name) => [
      await attempt('createSession', () => repo.createSession(name as string, { model: 'openai:gpt-4o' })),
      await attempt('openSession', () => repo.openSession(name as string)),
      await attempt('fork', () => chat.fork(name as string)),
      await attempt('importSession', () => repo.importSession(name as string, transcript, { model: 'openai:gpt-4o' })),
      await attempt('attach', () => chat.attach({ session: name as string })),
      await attempt('merge', () => repo.merge({ target: 'chat', peers: [name as string] })),
      await attempt('merge', () => repo.merge({ target: name as string, peers: ['other'] })),
    ]);
    expect(problems).toEqual([]);
    prototypeClean();
  });

  it('commit ids, node ids and item keys: readCommit, attach, expand, checkout, retry, edit, siblings', async () => {
    const ids = fc.oneof(hostileString, hostileValue, fc.stringMatching(/^[0-9a-f]{40}$/), fc.constant(commitId.toUpperCase()), fc.constant(`${commitId}\n`));
    const problems = await sweep(ids, 13, async (id) => [
      await attempt('readCommit', () => repo.readCommit(id as string)),
      await attempt('attach', () => chat.attach({ session: 'other', commit: id as string })),
      await attempt('expand', () => chat.expand(id as string)),
      await attempt('expand', () => chat.expand('sm_x', { commit: id as string })),
      await attempt('checkout', () => chat.checkout(id as string)),
      await attempt('retry', () => chat.retry(id as string)),
      await attempt('edit', () => chat.edit(id as string, 'edited')),
      await attempt('siblings', () => chat.siblings(id as string)),
    ]);
    expect(problems).toEqual([]);
    prototypeClean();
  });

  it('option objects: createSession, merge, attach, log, openRepo, verifyRepo', async () => {
    const problems = await sweep(fc.oneof(hostileValue, protoJson, fc.dictionary(hostileString, hostileValue, { maxKeys: 4 })), 14, async (opts) => [
      await attempt('createSession', () => repo.createSession('opt-session', opts as never)),
      await attempt('merge', () => repo.merge(opts as never)),
      await attempt('attach', () => chat.attach(opts as never)),
      await attempt('log', () => chat.log(opts as never)),
      await attempt('openRepo', () => openRepo(opts as never)),
      await attempt('verifyRepo', () => verifyRepo(repo, opts as never)),
    ]);
    // verifyRepo may legitimately write only its marker ref when asked to record; nothing else accepted here writes
    expect(problems).toEqual([]);
    prototypeClean();
  });

  it('importers: malformed and malicious transcripts are typed errors; imported ones store or refuse typed', async () => {
    const line = fc.oneof(
      hostileString,
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      protoJson.map((v) => JSON.stringify(v)),
      fc.record({ type: fc.constantFrom('user', 'assistant', 'system', 'summary'), message: fc.record({ role: fc.oneof(hostileString, fc.jsonValue({ maxDepth: 1 })), content: fc.oneof(hostileString, fc.array(fc.record({ type: fc.constantFrom('text', 'tool_use', 'tool_result'), text: hostileString, id: hostileString, name: hostileString, tool_use_id: hostileString, input: fc.jsonValue({ maxDepth: 2 }), content: hostileString }, { requiredKeys: [] }), { maxLength: 3 })) }, { requiredKeys: [] }), uuid: hostileString, parentUuid: fc.oneof(hostileString, fc.constant(null)) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
      fc.constant('['.repeat(20_000)),
    );
    let n = 0;
    const problems = await sweep(fc.array(line, { minLength: 1, maxLength: 6 }), 15, async (lines) => {
      const text = lines.join('\n');
      const out: (string | undefined)[] = [];
      const parsed = (() => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return text;
        }
      })();
      for (const [entry, run] of [
        ['importClaudeCode', () => [importClaudeCode(text)]],
        ['importClaudeCode', () => [importClaudeCode(text, { malformed: 'skip' })]],
        ['importOpenAIChat', () => importOpenAIChat(parsed)],
        ['importOpenAIChat', () => importOpenAIChat(text)],
        ['importSweAgentTraj', () => [importSweAgentTraj(parsed)]],
        ['importSweAgentTraj', () => [importSweAgentTraj(text)]],
      ] as const) {
        let transcripts: Transcript[] | undefined;
        out.push(await attempt(entry, () => (transcripts = run())));
        for (const t of transcripts ?? []) out.push(await attempt('importSession', () => repo.importSession(`imp-${n++}`, t, { model: 'openai:gpt-4o' })));
      }
      return out;
    });
    expect(problems).toEqual([]);
    prototypeClean();
  });

  it('the repository is still valid after everything above (verifyRepo and every session commits)', async () => {
    const report = await verifyRepo(repo, { previous: null });
    expect(report.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(HOSTILE_STRINGS.length).toBeGreaterThan(40);
  });
});
