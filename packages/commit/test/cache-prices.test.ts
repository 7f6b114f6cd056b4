// A session's default rules fold below the marks at the prompt-cache prices of its model (the model table's `cache`).
import { defaultRules } from '@ctxgit/rules';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../src/index.js';
import type { ContextCommit } from '../src/index.js';

const T0 = 1_700_000_000_000;

const turn = (i: number) =>
  [
    { role: 'assistant' as const, output: `step ${i}` },
    { role: 'tool' as const, name: 'read_file', input: { path: `f${i}.txt` }, output: `line ${i} of a file that was read once\n`.repeat(40), caller: 0 },
    { role: 'user' as const, output: `go on ${i}` },
  ] as const;

/** A 40-turn session on `model` whose history stays far under its marks: only a fold that has paid for itself can happen. */
async function run(model: string, cache: { read: number; write: number } | undefined, rules?: ReturnType<typeof defaultRules>): Promise<ContextCommit> {
  let now = T0;
  const repo = await openRepo({ memory: true, clock: () => (now += 1000) });
  const models = { [model]: { provider: 'openai', window: 200_000, maxOutput: 0, encoding: 'o200k_base', ...(cache === undefined ? {} : { cache }) } } as const;
  const s = await repo.createSession('s', { model, models, ...(rules === undefined ? {} : { rules }) });
  await s.appendTurn([{ role: 'user', output: 'start' }]);
  let last: ContextCommit | undefined;
  for (let i = 0; i < 40; i++) last = (await s.appendTurn(turn(i))).commit;
  return last as ContextCommit;
}

const summaries = (c: ContextCommit): number => c.items.filter((it) => it.state === 'summary').length;

describe('cache prices of the model', () => {
  it('a model whose cached reads cost as much as uncached ones folds what it has read long enough; one with free reads never folds under the marks', async () => {
    const paid = await run('openai:uncached', { read: 1, write: 1 });
    const free = await run('openai:free-reads', { read: 0, write: 1 });
    expect(paid.totalTokens).toBeLessThan(0.5 * 150_000); // far under the marks: no band fold
    expect(summaries(paid)).toBeGreaterThan(0);
    expect(summaries(free)).toBe(0);
    expect(paid.totalTokens).toBeLessThan(free.totalTokens);
  });

  it('the provider prices apply to a model entry without them, and rules given by the caller keep their own prices', async () => {
    const openaiDefault = await run('openai:plain', undefined);
    const halfPrice = await run('openai:half', { read: 0.5, write: 1 });
    expect(openaiDefault.items).toEqual(halfPrice.items);
    const own = await run('openai:uncached', { read: 1, write: 1 }, defaultRules({ cacheRead: 0 }));
    expect(summaries(own)).toBe(0);
  });
});
