import { describe, expect, it } from 'vitest';
import { InvalidOptionError, openRepo } from '../src/index.js';
import type { ContextCommit, Repo, SessionSummarizeInput, SessionSummarizer } from '../src/index.js';
import { FS_KINDS, stepClock } from './helpers.js';

/** A chat long enough to fold under a 600-token budget; returns every commit. */
async function chat(repo: Repo, opts: { summarizer?: SessionSummarizer } = {}, name = 'chat'): Promise<ContextCommit[]> {
  // the band these scenarios were written for: folds from 0.8 of the history budget
  const s = await repo.createSession(name, { model: 'openai:gpt-4o', budget: 600, clock: stepClock(), band: { foldAt: 0.8 }, ...opts });
  const commits: ContextCommit[] = [];
  for (let i = 0; i < 14; i++) {
    await s.append({ role: 'user', output: `Question ${i}: what do you know about order ORD-${1000 + i} and its parcel?` });
    commits.push(await s.commit());
    await s.append({ role: 'assistant', output: `Order ORD-${1000 + i} shipped on day ${i} with parcel PX${i * 7}; it is ${i % 2 === 0 ? 'late' : 'on time'}.` });
  }
  return commits;
}

const summaries = (c: ContextCommit): string[] => c.items.filter((it) => it.state === 'summary').map((it) => it.key);
const bodies = async (repo: Repo, name = 'chat'): Promise<string> => (await (await repo.openSession(name)).log()).map((e) => e.message).join('\n');

describe('no summarizer', () => {
  it('folds with the deterministic brief, and two runs give the same commit ids', async () => {
    const a = await chat(await openRepo({ memory: true, clock: stepClock() }));
    const b = await chat(await openRepo({ memory: true, clock: stepClock() }));
    expect(a.map((c) => c.id)).toEqual(b.map((c) => c.id));
    const last = a.at(-1) as ContextCommit;
    expect(summaries(last).length).toBeGreaterThan(0);
    for (const it of last.items) if (it.state === 'summary') expect(it.reason).toMatch(/^fold/);
  });
});

describe.each(FS_KINDS)('a summarizer on $name', (kind) => {
  it('writes the text of every new summary from the folded originals, and the commit message says so', async () => {
    const { repo } = await kind.open();
    const seen: SessionSummarizeInput[] = [];
    const summarizer: SessionSummarizer = {
      name: 'fake',
      summarize: async (input) => {
        seen.push(input);
        return `Summary of ${input.items.map((it) => it.key).join(',')}`;
      },
    };
    const commits = await chat(repo, { summarizer });
    const last = commits.at(-1) as ContextCommit;
    const made = last.items.filter((it) => it.state === 'summary');
    expect(made.length).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThanOrEqual(made.length);
    for (const s of made) {
      expect(s.reason).toBe('summarizer:fake');
      const input = seen.find((x) => x.key === s.key) as SessionSummarizeInput;
      expect(input.brief.startsWith('[ctxgit brief]')).toBe(true);
      expect(s.blocks).toEqual([{ type: 'text', text: `Summary of ${input.items.map((it) => it.key).join(',')}` }]);
      // the span the summarizer saw is the originals behind the summary, full text included
      expect(input.items.every((it) => it.state !== 'summary')).toBe(true);
      // and the DAG nodes behind them, with their exact text
      expect(input.nodes.map((n) => n.id)).toEqual(input.items.map((it) => it.sourceNodeId));
      for (const n of input.nodes) expect(n).toEqual(await repo.store.getNode(n.id));
    }
    expect(await bodies(repo)).toMatch(/Summarizer fake: wrote (\d+) of \1 new summaries\./);
  });

  it('falls back to the deterministic brief when the summarizer throws, times out, returns no text or too much', async () => {
    const plain = await chat((await kind.open()).repo);
    const expected = (plain.at(-1) as ContextCommit).items;
    let aborted = 0;
    const cases: [string, SessionSummarizer, RegExp][] = [
      ['threw', { name: 'boom', summarize: async () => Promise.reject(new Error('model unavailable')) }, /\(threw: Error: model unavailable\)/],
      [
        'timeout',
        {
          name: 'slow',
          timeoutMs: 20,
          summarize: async (_input, signal) =>
            new Promise<string>(() => {
              signal.addEventListener('abort', () => aborted++);
            }),
        },
        /\(timeout: no answer within 20 ms\)/,
      ],
      ['not_text', { name: 'blank', summarize: async () => '  ' }, /\(not_text: resolved to a blank string\)/],
      ['over_allowance', { name: 'wordy', maxBytes: 64, summarize: async () => 'é'.repeat(40) }, /\(over_allowance: 80 bytes, the allowance is 64\)/],
    ];
    for (const [reason, summarizer, detail] of cases) {
      const { repo } = await kind.open();
      const commits = await chat(repo, { summarizer });
      const last = commits.at(-1) as ContextCommit;
      expect(last.items, reason).toEqual(expected);
      const log = await bodies(repo);
      expect(log, reason).toMatch(new RegExp(`Summarizer ${summarizer.name}: wrote 0 of \\d+ new summaries\\.`));
      expect(log, reason).toMatch(new RegExp(`Summarizer fallback: sm_\\w+ kept the deterministic brief ${detail.source}`));
    }
    expect(aborted).toBeGreaterThan(0);
  });

  it('keeps the brief when the text would put the history over the emergency mark (over_budget)', async () => {
    const { repo } = await kind.open();
    const commits = await chat(repo, { summarizer: { name: 'huge', maxBytes: 100_000, summarize: async () => 'lorem ipsum '.repeat(4000) } });
    expect((commits.at(-1) as ContextCommit).items.filter((it) => it.state === 'summary').every((it) => it.reason.startsWith('fold'))).toBe(true);
    expect(await bodies(repo)).toMatch(/kept the deterministic brief \(over_budget: /);
  });
});

describe('where the summarizer is set', () => {
  it('openRepo gives every session a default; createSession and openSession override it', async () => {
    const calls: string[] = [];
    const named = (name: string): SessionSummarizer => ({ name, summarize: async () => (calls.push(name), `by ${name}`) });
    const repo = await openRepo({ memory: true, clock: stepClock(), summarizer: named('repo') });
    await chat(repo, {}, 'a');
    await chat(repo, { summarizer: named('own') }, 'b');
    expect(calls).toContain('repo');
    expect(calls).toContain('own');
    const reasons = async (name: string): Promise<Set<string>> =>
      new Set((await (await repo.openSession(name)).commit()).items.filter((it) => it.state === 'summary').map((it) => it.reason));
    expect(await reasons('a')).toEqual(new Set(['summarizer:repo']));
    expect(await reasons('b')).toEqual(new Set(['summarizer:own']));
  });

  it('refuses a malformed summarizer before anything is written', async () => {
    const repo = await openRepo({ memory: true, clock: stepClock() });
    const bad: unknown[] = [{ name: 'no spaces allowed', summarize: async () => 'x' }, { name: 'x' }, { name: 'x', summarize: async () => 'x', timeoutMs: 0 }, { name: 'x', summarize: async () => 'x', maxBytes: 1.5 }, 'fn'];
    for (const summarizer of bad) {
      await expect(repo.createSession('x', { model: 'openai:gpt-4o', summarizer: summarizer as SessionSummarizer })).rejects.toBeInstanceOf(InvalidOptionError);
    }
    await expect(openRepo({ memory: true, summarizer: { name: 'x' } as unknown as SessionSummarizer })).rejects.toMatchObject({ code: 'E_COMMIT_INVALID_OPTION' });
    expect(await repo.listSessions()).toEqual([]);
  });
});
