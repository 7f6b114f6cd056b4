// Every command in-process on a repository imported from the corpus: text and --json output, and the contracts of
// log --json and export.
import { join } from 'node:path';
import { render } from '@ctxgit/render';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpus, run, runJson, SIMPLE_TRAJ, tempDir } from './helpers.js';

const BIG = join(corpus, 'swe-agent', 'replay__marshmallow-code__marshmallow-1867__function_calling_replace_from_source__marshmallow-code__marshmallow-1867.traj');

interface LogLine {
  id: string;
  parentIds: string[];
  headNodeId: string;
  totalTokens: number;
  states: { full: number; aged: number; cleared: number; summarized: number; summary: number };
}
interface Shown {
  id: string;
  session: string;
  headNodeId: string;
  totalTokens: number;
  items: { key: string; state: string; role: string; tokens: number; reason: string }[];
  foldedItems?: number;
}

let repo: string;
let log: LogLine[];
/** Index in `log` of the first commit holding a summary (the first fold). */
let fold: number;
let commits: Shown[];

beforeAll(async () => {
  repo = join(tempDir(), 'repo');
  await runJson(['import', BIG, '--format', 'swe-agent', '--session', 'big', '--budget', '8000', '--repo', repo, '--no-fsync']);
  await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'simple', '--repo', repo, '--no-fsync']);
  log = await runJson<LogLine[]>(['log', '--session', 'big', '--repo', repo]);
  commits = [];
  for (const e of log) commits.push(await runJson<Shown>(['show', e.id, '--repo', repo]));
  fold = log.findIndex((e) => e.states.summary > 0);
});

const counts = (c: Shown): Record<string, number> => {
  // The live items, and the items folded under their summaries as summarized.
  const n: Record<string, number> = { full: 0, aged: 0, cleared: 0, summarized: c.foldedItems ?? 0, summary: 0 };
  for (const it of c.items) n[it.state] = (n[it.state] ?? 0) + 1;
  return n;
};

describe('ctxgit log', () => {
  it('prints the commits oldest first with the documented JSON shape', () => {
    expect(log).toHaveLength(13);
    expect(log[0]?.parentIds).toEqual([]);
    for (let i = 1; i < log.length; i++) expect(log[i]?.parentIds).toEqual([log[i - 1]?.id]);
    for (const e of log) {
      expect(Object.keys(e)).toEqual(['id', 'parentIds', 'headNodeId', 'totalTokens', 'states']);
      expect(Object.keys(e.states)).toEqual(['full', 'aged', 'cleared', 'summarized', 'summary']);
      expect(e.id).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(log.map((e) => [e.id, e.headNodeId, e.totalTokens, e.states])).toEqual(commits.map((c) => [c.id, c.headNodeId, c.totalTokens, counts(c)]));
    expect(fold).toBeGreaterThan(0);
  });

  it('prints one line per commit without --json, and needs --session when the repository has several', async () => {
    const r = await run(['log', '--session', 'big', '--repo', repo]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(15);
    expect(lines[0]).toMatch(/^session big: the branch of head [0-9a-f]{12} \(13 commits; --all for every branch\)$/);
    expect(lines[2]).toMatch(new RegExp(`^${log[0]?.id.slice(0, 12)}  1 +${log[0]?.totalTokens} +2 full +big turn 1: \\+2 items`));
    const ambiguous = await run(['log', '--repo', repo]);
    expect(ambiguous).toEqual({ code: 2, stdout: '', stderr: 'ctxgit: name one session with --session (this repository has 2: big, simple) [E_CLI_USAGE]\n' });
  });
});

describe('ctxgit show / render / diff', () => {
  it('show --json is the commit; show accepts a unique prefix and lists items', async () => {
    const c = commits[fold] as Shown;
    expect(c.id).toBe(log[fold]?.id);
    expect(c.session).toBe('big');
    expect(c.items.filter((it) => it.state === 'summary').length).toBe(log[fold]?.states.summary);
    const text = await run(['show', (log[fold]?.id ?? '').slice(0, 12), '--repo', repo]);
    expect(text.stdout.split('\n')[0]).toBe(`commit ${log[fold]?.id}`);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines.slice(-c.items.length).map((l) => l.split(/ +/).slice(1, 5))).toEqual(c.items.map((it) => [it.key, it.role, it.state, String(it.tokens)]));
  });

  it('render prints exactly what render() returns, for each provider', async () => {
    const c = await runJson<Parameters<typeof render>[0]>(['show', log[4]?.id ?? '', '--repo', repo]);
    for (const provider of ['openai-chat', 'openai-responses'] as const) {
      const body = await runJson<unknown>(['render', log[4]?.id ?? '', '--provider', provider, '--repo', repo]);
      expect(body).toEqual(JSON.parse(JSON.stringify(render(c, { provider }))));
    }
    // the session's model is openai:gpt-4o: an Anthropic request needs the model it names
    const refused = await run(['render', log[4]?.id ?? '', '--provider', 'anthropic', '--repo', repo]);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('[E_RENDER_MODEL_MISMATCH]') as string]);
    const anthropic = await runJson<unknown>(['render', log[4]?.id ?? '', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--repo', repo]);
    expect(anthropic).toEqual(JSON.parse(JSON.stringify(render(c, { provider: 'anthropic', model: 'claude-sonnet-4-5' }))));
    const text = await run(['render', log[4]?.id ?? '', '--provider', 'text', '--repo', repo]);
    expect(text.stdout).toBe(`${render(c, { provider: 'text' })}\n`);
    const max = await runJson<{ max_tokens: number }>(['render', log[4]?.id ?? '', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--max-tokens', '512', '--repo', repo]);
    expect(max.max_tokens).toBe(512);
  });

  it('diff names the items whose state changed and why', async () => {
    const [a, b] = [commits[fold - 1] as Shown, commits[fold] as Shown];
    const d = await runJson<{ a: string; b: string; tokens: number[]; changes: { key: string; from: string | null; to: string | null; reason: string }[] }>([
      'diff',
      a.id,
      b.id,
      '--repo',
      repo,
    ]);
    expect(d.tokens).toEqual([a.totalTokens, b.totalTokens]);
    const before = new Map(a.items.map((it) => [it.key, it]));
    const changedState = b.items.filter((it) => before.get(it.key)?.state !== it.state);
    // Folded items leave b's live list: they come after, as folded into one of b's summaries.
    const live = new Set(b.items.map((it) => it.key));
    const folded = a.items.filter((it) => !live.has(it.key));
    expect(d.changes.filter((c) => c.from !== c.to).map((c) => [c.key, c.from, c.to, c.reason])).toEqual([
      ...changedState.map((it) => [it.key, before.get(it.key)?.state ?? null, it.state, it.reason]),
      ...folded.map((it) => [it.key, it.state, 'summarized', 'folded']),
    ]);
    expect(d.changes.some((c) => c.from === 'full' && c.to === 'summarized' && c.reason === 'folded')).toBe(true);
    expect(d.changes.some((c) => c.from === null && c.to === 'summary')).toBe(true);
    const text = await run(['diff', a.id.slice(0, 8), b.id.slice(0, 8), '--repo', repo]);
    expect(text.stdout.split('\n')[0]).toBe(`${a.id.slice(0, 12)} -> ${b.id.slice(0, 12)}: ${a.totalTokens} -> ${b.totalTokens} tokens, ${d.changes.length} items changed`);
  });
});

describe('ctxgit stats / export / sessions', () => {
  it('stats: per-commit full vs fed tokens, occupancy, states and prefix stability', async () => {
    const s = await runJson<{
      session: string;
      commits: { totalTokens: number; fullTokens: number; occupancy: number; prefixShare: number | null; prefixMessages: number }[];
      totals: { commits: number; fullTokens: number; totalTokens: number; saved: number };
    }>(['stats', '--session', 'big', '--repo', repo]);
    expect(s.session).toBe('big');
    expect(s.commits.map((c) => c.totalTokens)).toEqual(log.map((e) => e.totalTokens));
    expect(s.commits[0]?.prefixShare).toBeNull();
    expect(s.commits[1]?.prefixShare).toBe(1);
    expect(s.commits[fold]?.prefixShare).toBeLessThan(1);
    for (const c of s.commits) {
      expect(c.fullTokens).toBeGreaterThanOrEqual(c.totalTokens);
      expect(c.occupancy).toBeCloseTo(c.totalTokens / 8000, 4);
    }
    expect(s.totals.commits).toBe(13);
    expect(s.totals.totalTokens).toBe(log.reduce((n, e) => n + e.totalTokens, 0));
    expect(s.totals.saved).toBe(s.totals.fullTokens - s.totals.totalTokens);
    const text = await run(['stats', '--session', 'big', '--repo', repo]);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^total: ${s.totals.totalTokens} tokens fed for ${s.totals.fullTokens} of full history \\(\\d+% saved\\), mean cacheable prefix \\d+\\.\\d%$`),
    );
  });

  it('export prints one JSON line per model call, request exactly as render returns it', async () => {
    for (const provider of ['openai-chat', 'anthropic'] as const) {
      const r = await run(['export', '--session', 'big', '--provider', provider, ...(provider === 'anthropic' ? ['--model', 'claude-sonnet-4-5'] : []), '--repo', repo]);
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { commit: string; headNodeId: string; totalTokens: number; provider: string; request: unknown });
      expect(lines.map((l) => l.commit)).toEqual(log.map((e) => e.id));
      for (const [i, l] of lines.entries()) {
        expect(Object.keys(l)).toEqual(['commit', 'headNodeId', 'totalTokens', 'provider', 'request']);
        expect(l.headNodeId).toBe(log[i]?.headNodeId);
        expect(l.totalTokens).toBe(log[i]?.totalTokens);
        expect(l.provider).toBe(provider);
        expect(l.request).toEqual(await runJson(['render', l.commit, '--provider', provider, ...(provider === 'anthropic' ? ['--model', 'claude-sonnet-4-5'] : []), '--repo', repo]));
      }
    }
  });

  it('sessions lists every session with head, model, window and commit count', async () => {
    const s = await runJson<{ sessions: { id: string; commits: number; window: number }[] }>(['sessions', '--repo', repo]);
    expect(s.sessions.map((x) => [x.id, x.commits, x.window])).toEqual([
      ['big', 13, 8000],
      ['simple', 5, 128_000],
    ]);
    const text = await run(['sessions', '--repo', repo]);
    expect(text.stdout.split('\n')[0]).toMatch(/^session +commits +model +window +head$/);
  });
});

describe('a commit that ends with an assistant message (a checkout of an answer)', () => {
  it('render and export refuse it with a hint unless --allow-assistant-last; stats measures it', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = tempDir();
    const file = join(dir, 'chat.json');
    writeFileSync(file, JSON.stringify([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: '2 + 2?' }, { role: 'assistant', content: '4.' }]));
    const work = join(dir, 'repo');
    expect(await runJson(['import', file, '--format', 'openai-chat', '--repo', work, '--no-fsync'])).toEqual({ sessions: [{ id: 'chat', nodes: 4, commits: 2 }] });
    const head = (await runJson<{ sessions: { head: string }[] }>(['sessions', '--repo', work])).sessions[0]?.head ?? '';
    const co = await runJson<{ commit: string }>(['checkout', head, '--repo', work]);
    const refused = await run(['render', co.commit, '--provider', 'openai-chat', '--repo', work]);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: `ctxgit: commit ${co.commit.slice(0, 12)} ends with an assistant message (it is not the context of a model call); pass --allow-assistant-last to render it anyway [E_RENDER_INVALID_ENDING]\n`,
    });
    const body = await runJson<{ messages: { role: string }[] }>(['render', co.commit, '--provider', 'openai-chat', '--allow-assistant-last', '--repo', work]);
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect((await run(['export', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--repo', work])).code).toBe(1);
    const lines = (await run(['export', '--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--allow-assistant-last', '--repo', work])).stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const stats = await runJson<{ commits: { prefixShare: number | null }[] }>(['stats', '--repo', work]);
    expect(stats.commits).toHaveLength(3);
    expect(stats.commits[2]?.prefixShare).toBe(1);
  });
});

describe('ctxgit expand / checkout / fork / merge / verify', () => {
  it('expand returns the originals of a summary, verified by their git ids', async () => {
    const c = await runJson<Shown>(['show', log[12]?.id ?? '', '--repo', repo]);
    const summary = c.items.find((it) => it.state === 'summary');
    const x = await runJson<{ key: string; originals: { key: string; oid: string; node: { id: string; output: string } }[] }>([
      'expand',
      summary?.key ?? '',
      '--session',
      'big',
      '--repo',
      repo,
    ]);
    expect(x.key).toBe(summary?.key);
    expect(x.originals.length).toBeGreaterThan(0);
    for (const o of x.originals) {
      expect(o.oid).toMatch(/^[0-9a-f]{40}$/);
      expect(o.node.id).toBe(o.key);
    }
    const text = await run(['expand', summary?.key ?? '', '--session', 'big', '--repo', repo]);
    expect(text.stdout).toContain(`--- ${x.originals[0]?.key}`);
    expect(text.stdout).toContain(x.originals[0]?.node.output.slice(0, 40));
  });

  it('checkout moves the head (display-only), fork branches, merge joins with a multi-parent commit, verify passes', async () => {
    const work = join(tempDir(), 'repo');
    await runJson(['import', SIMPLE_TRAJ, '--format', 'swe-agent', '--session', 'main', '--repo', work, '--no-fsync']);
    const mainLog = await runJson<LogLine[]>(['log', '--repo', work]);
    const first = mainLog[1]?.headNodeId ?? '';
    const co = await runJson<{ session: string; head: string; commit: string; siblings: { index: number; total: number } }>(['checkout', first, '--repo', work]);
    expect(co).toMatchObject({ session: 'main', head: first, commit: mainLog[1]?.id, siblings: { index: 1, total: 1 } });
    const byCommit = await runJson<{ head: string }>(['checkout', (mainLog[2]?.id ?? '').slice(0, 10), '--repo', work]);
    expect(byCommit.head).toBe(mainLog[2]?.headNodeId);
    const fork = await runJson<{ session: string; from: string; head: string }>(['fork', 'alt', '--session', 'main', '--at', first, '--repo', work]);
    expect(fork).toEqual({ session: 'alt', from: 'main', head: first });
    const merged = await runJson<{ session: string; commit: string; parentIds: string[] }>([
      'merge',
      'alt',
      '--session',
      'main',
      '--instruction',
      'Combine both branches.',
      '--repo',
      work,
    ]);
    expect(merged.session).toBe('main');
    expect(merged.parentIds).toHaveLength(2);
    const verify = await runJson<{ ok: boolean; counts: { contextCommits: number; nodes: number }; issues: unknown[]; recorded: boolean; token: string }>(['verify', '--repo', work, '--record']);
    expect(verify.ok).toBe(true);
    expect(verify.issues).toEqual([]);
    expect(verify.recorded).toBe(true);
    expect(verify.counts.contextCommits).toBeGreaterThan(0);
    const again = await runJson<{ ok: boolean; previous: string }>(['verify', '--repo', work]);
    expect(again).toMatchObject({ ok: true, previous: verify.token });
    const text = await run(['verify', '--repo', repo]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ok: \d+ refs, \d+ DAG commits, \d+ nodes, 2 sessions, \d+ context commits, \d+ items, \d+ summaries, \d+ origins, \d+ objects checked\n$/);
  });
});
