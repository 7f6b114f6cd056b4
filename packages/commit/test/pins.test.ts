import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendNode } from '@ctxgit/dag';
import { estimateTokenizer } from '@ctxgit/tokenize';
import { defaultRules, type ContextItem } from '@ctxgit/rules';
import { InvalidOptionError, openRepo, PinCapError, PinStateError, PinTargetError, verifyRepo } from '../src/index.js';
import type { Repo, Session } from '../src/index.js';
import { applyPins } from '../src/engine/pins/apply-pins.js';
import { pinnedTokens } from '../src/engine/pins/pinned-mass.js';
import { FS_KINDS, git, stepClock, tempDir } from './helpers.js';

/** One agent step: an assistant call and its tool result; returns the tool node id. */
async function step(s: Session, i: number): Promise<string> {
  const a = await s.append({ role: 'assistant', output: `Reading file ${i}.` });
  const t = await s.append({ role: 'tool', name: 'cat', input: { path: `src/f${i}.ts` }, output: `export const v${i} = ${i};\n`.repeat(20), caller: a.id });
  await s.commit();
  return t.id;
}

const item = (items: readonly ContextItem[], key: string): ContextItem | undefined => items.find((it) => it.key === key);

const rules = defaultRules({ graphProtection: false });
/** Mutations on every commit, not batched into cache epochs. */
const band = { epochs: false };

async function agent(repo: Repo, opts: { maxPinnedShare?: number } = {}): Promise<{ s: Session; tools: string[] }> {
  // no graph protection and no epochs: the critical chain of a read-only agent would keep every result full
  const s = await repo.createSession('agent', { model: 'openai:gpt-4o', budget: 20_000, clock: stepClock(), rules, band, ...opts });
  await s.append({ role: 'user', output: 'Read the sources.' });
  const tools: string[] = [];
  for (let i = 0; i < 2; i++) tools.push(await step(s, i));
  return { s, tools };
}

describe.each(FS_KINDS)('pin and unpin on $name', (kind) => {
  it('a pinned item stays full from the next commit on, an unpinned one ages again; both are DAG records, not items', async () => {
    const { repo, gitdir } = await kind.open();
    const { s, tools } = await agent(repo);
    const [t0, t1] = tools as [string, string];
    const res = await s.pin(t0);
    expect(res.record.role).toBe('system');
    expect(res.record.metadata).toEqual({ pin: { key: t0, pinned: true } });
    expect(res.pinnedTokens).toBe(res.itemTokens);
    expect(res.capTokens).toBe(5000); // 0.25 of 20,000
    expect(await s.head()).toBe(res.record.id);
    for (let i = 2; i < 6; i++) tools.push(await step(s, i));
    const c = await s.commit();
    expect(item(c.items, t0)).toMatchObject({ state: 'full', pinned: true });
    expect(item(c.items, t1)?.state).toBe('aged'); // the same age, unpinned
    expect(item(c.items, res.record.id)).toBeUndefined();
    const log = await s.log();
    expect(log.map((e) => e.message).join('\n')).toContain(`Pins: pinned ${t0} (${res.itemTokens} tokens); pinned items hold ${res.itemTokens} of 5000 tokens allowed.`);

    const un = await s.unpin(t0);
    expect(un.pinnedTokens).toBe(0);
    await step(s, 6);
    const after = await s.commit();
    expect(item(after.items, t0)).toMatchObject({ state: 'aged' });
    expect(item(after.items, t0)?.pinned).toBeUndefined();
    expect(await s.commit()).toEqual(after); // nothing new: the same commit
    expect((await verifyRepo(repo)).issues).toEqual([]);
    if (kind.name === 'disk') git(gitdir, 'fsck', '--strict');
  });

  it('refuses unknown nodes, wrong states, a second pin and the cap, naming the numbers; nothing is written then', async () => {
    const { repo } = await kind.open();
    const { s, tools } = await agent(repo, { maxPinnedShare: 0.01 }); // 200 tokens
    const [t0, t1] = tools as [string, string];
    const head = async (): Promise<string | null> => s.head();
    const refused = async (p: Promise<unknown>): Promise<unknown> => p.then(() => undefined, (e: unknown) => e);

    let before = await head();
    expect(await refused(s.pin('no-such-node'))).toBeInstanceOf(PinTargetError);
    expect(await refused(s.pin(''))).toBeInstanceOf(InvalidOptionError);
    expect(await refused(s.unpin(t0))).toMatchObject({ code: 'E_COMMIT_PIN_STATE', data: { nodeId: t0, pinned: false, wanted: 'unpin' } });
    expect(await head()).toBe(before);

    const first = await s.pin(t1);
    expect(await refused(s.pin(t1))).toMatchObject({ code: 'E_COMMIT_PIN_STATE', data: { pinned: true, wanted: 'pin' } });
    before = await head();
    const over = await refused(s.pin(t0));
    expect(over).toBeInstanceOf(PinCapError);
    expect((over as PinCapError).data).toEqual({ nodeId: t0, itemTokens: first.itemTokens, pinnedTokens: first.itemTokens, capTokens: 200 });
    expect((over as Error).message).toContain(`hold ${first.itemTokens} of the 200 tokens allowed`);
    expect(await head()).toBe(before);

    for (let i = 2; i < 6; i++) await step(s, i);
    await s.unpin(t1);
    await s.commit();
    const aged = await refused(s.pin(t0)); // aged since: a pin cannot bring it back
    expect(aged).toBeInstanceOf(PinStateError);
    expect((aged as PinStateError).data).toMatchObject({ state: 'aged' });

    await expect(s.append({ role: 'system', output: 'x', metadata: { pin: { key: t0, pinned: true } } })).rejects.toMatchObject({ code: 'E_COMMIT_INVALID_OPTION' });
  });

  it('a record written past the cap (another writer, a lowered cap) is not applied, and the commit says so', async () => {
    const { repo } = await kind.open();
    const { s, tools } = await agent(repo, { maxPinnedShare: 0.01 });
    const [t0, t1] = tools as [string, string];
    await s.pin(t0);
    await appendNode(repo.store, 'agent', { role: 'system', output: `[ctxgit pin ${t1}]`, metadata: { pin: { key: t1, pinned: true } } });
    const c = await s.commit();
    expect(item(c.items, t0)?.pinned).toBe(true);
    expect(item(c.items, t1)?.pinned).toBeUndefined();
    expect((await s.log({ limit: 1 }))[0]?.message).toMatch(new RegExp(`Pins: pin ${t1} \\(record \\w+\\) not applied: \\d+ tokens over the cap \\(\\d+ of 200 tokens pinned\\)\\.`));
  });
});

describe('nodes appended with metadata.pinned', () => {
  it('are pins of themselves, held to the same cap', async () => {
    const repo = await openRepo({ memory: true, clock: stepClock() });
    const { s } = await agent(repo, { maxPinnedShare: 0.01 }); // 200 tokens
    const small = await s.append({ role: 'user', output: 'Keep this: ORD-1.', metadata: { pinned: true } });
    const big = await s.append({ role: 'user', output: 'Keep this too: '.concat('order history line, '.repeat(80)), metadata: { pinned: true } });
    const c = await s.commit();
    expect(item(c.items, small.id)?.pinned).toBe(true);
    expect(item(c.items, big.id)?.pinned).toBeUndefined();
    const message = (await s.log({ limit: 1 }))[0]?.message ?? '';
    expect(message).toMatch(new RegExp(`Pins: pinned ${small.id} \\(\\d+ tokens\\)`));
    expect(message).toMatch(new RegExp(`Pins: pin ${big.id} \\(record ${big.id}\\) not applied: \\d+ tokens over the cap`));
    await s.unpin(small.id);
    expect(item((await s.commit()).items, small.id)?.pinned).toBeUndefined();
  });
});

describe('pins survive a restart and follow the branch', () => {
  it('a reopened repository keeps the pin; a fork after it inherits it, a branch from before it does not', async () => {
    const dir = `${tempDir()}/ctx.git`;
    const repo = await openRepo({ dir, clock: stepClock(), fsync: false });
    const { s, tools } = await agent(repo);
    const [t0] = tools as [string];
    const beforePin = await s.head();
    await s.pin(t0);
    await s.commit();

    const again = await openRepo({ dir, clock: stepClock(1_800_000_000_000), fsync: false });
    const s2 = await again.openSession('agent', { rules, band });
    for (let i = 2; i < 6; i++) await step(s2, i);
    expect(item((await s2.commit()).items, t0)).toMatchObject({ state: 'full', pinned: true });

    const fork = await s2.fork('agent-fork');
    for (let i = 6; i < 8; i++) await step(fork, i);
    expect(item((await fork.commit()).items, t0)?.pinned).toBe(true);

    const early = await s2.fork('agent-early', { at: beforePin ?? '' });
    for (let i = 8; i < 13; i++) await step(early, i);
    const unpinned = item((await early.commit()).items, t0);
    expect(unpinned?.pinned).toBeUndefined();
    expect(unpinned?.state).toBe('cleared'); // the reopened clock is years later: aged, then idle
    expect((await verifyRepo(again)).issues).toEqual([]);
  });
});

describe('applying pin records (property)', () => {
  const itemArb = fc.record({ state: fc.constantFrom('full', 'full', 'aged', 'cleared', 'summarized'), tokens: fc.integer({ min: 1, max: 100 }), pinned: fc.boolean() });
  const recordArb = fc.record({ at: fc.nat({ max: 14 }), pinned: fc.boolean() });

  it('changes only the pinned flag, pins only full items, never takes the pinned mass over the cap, says something per record', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { minLength: 1, maxLength: 12 }), fc.array(recordArb, { maxLength: 10 }), fc.integer({ min: 0, max: 400 }), (specs, recs, cap) => {
        const items: ContextItem[] = specs.map((x, i) => ({
          key: `k${i}`,
          sourceNodeId: `k${i}`,
          role: 'user',
          state: x.state as ContextItem['state'],
          locked: false,
          blocks: [{ type: 'text', text: `item ${i}` }],
          tokens: x.tokens,
          reason: 'new',
          touchedAt: 0,
          ...(x.pinned && x.state === 'full' ? { pinned: true } : {}),
        }));
        const records = recs.map((r, i) => ({ node: `r${i}`, key: `k${r.at}`, pinned: r.pinned }));
        const out = applyPins(items, [], records, cap, estimateTokenizer);
        expect(out.notes.length).toBe(records.length);
        expect(out.parent.map((it) => it.key)).toEqual(items.map((it) => it.key));
        out.parent.forEach((it, i) => {
          const before = items[i] as ContextItem;
          const { pinned: _a, ...rest } = it;
          const { pinned: _b, ...was } = before;
          expect(rest).toEqual(was);
          if (it.pinned === true && before.pinned !== true) expect(before.state).toBe('full');
        });
        expect(pinnedTokens(out.parent)).toBeLessThanOrEqual(Math.max(cap, pinnedTokens(items)));
        if (records.length === 0) expect(out.parent).toBe(items);
      }),
      { numRuns: 300 },
    );
  });
});
