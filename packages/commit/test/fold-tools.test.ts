import { describe, expect, it } from 'vitest';
import { defaultRules } from '@ctxgit/rules';
import { FoldToolError, foldTools, foldToolsFor, FOLD_TOOL_NAMES, InvalidOptionError } from '../src/index.js';
import type { ContextCommit, FoldToolResult, Repo, Session } from '../src/index.js';
import { FS_KINDS, stepClock } from './helpers.js';

/** An order desk whose early turns fold under a 400-token budget; every turn has a lookup tool call. */
async function desk(repo: Repo): Promise<{ s: Session; c: ContextCommit }> {
  const s = await repo.createSession('desk', { model: 'openai:gpt-4o', budget: 400, clock: stepClock(), rules: defaultRules({ graphProtection: false }) });
  for (let i = 0; i < 12; i++) {
    await s.append({ role: 'user', output: `Where is order ORD-${1000 + i}?` });
    await s.commit();
    const a = await s.append({ role: 'assistant', output: `Looking up ORD-${1000 + i}.` });
    await s.append({ role: 'tool', name: 'lookup', input: { order: `ORD-${1000 + i}` }, output: `{"order":"ORD-${1000 + i}","parcel":"PX${7 * i}","status":"${i % 3 === 0 ? 'lost' : 'shipped'}"}`, caller: a.id });
    await s.append({ role: 'assistant', output: `Order ORD-${1000 + i} is ${i % 3 === 0 ? 'lost' : 'on its way'}.` });
  }
  await s.append({ role: 'user', output: 'Thanks.' });
  return { s, c: await s.commit() };
}

const call = (s: Session, name: string, args: unknown, opts = {}): Promise<FoldToolResult> =>
  s.foldTool({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }, opts);

function failed(r: FoldToolResult, code: string): FoldToolError {
  expect(r.isError).toBe(true);
  expect(r.error).toBeInstanceOf(FoldToolError);
  expect(r.error?.code).toBe(code);
  expect(r.output).toBe(`error ${code}: ${r.error?.message ?? ''}`);
  return r.error as FoldToolError;
}

describe.each(FS_KINDS)('fold tools on $name', (kind) => {
  it('fold_expand returns every original byte for byte with its git object id, by key or by position', async () => {
    const { repo } = await kind.open();
    const { s, c } = await desk(repo);
    const summary = c.items.find((it) => it.state === 'summary');
    if (summary === undefined) throw new Error('nothing folded');
    const r = await call(s, 'fold_expand', { summary: summary.key });
    expect(r.isError).toBe(false);
    const out = JSON.parse(r.output) as { summary: string; commit: string; originals: { key: string; oid: string; output: string; input?: unknown }[] };
    const direct = await s.expand(summary.key);
    expect(out.summary).toBe(summary.key);
    expect(out.commit).toBe(c.id);
    expect(out.originals.map((o) => [o.key, o.oid, o.output])).toEqual(direct.originals.map((o) => [o.key, o.oid, o.node.output]));
    expect(out.originals.some((o) => o.input !== undefined)).toBe(true);
    expect((await call(s, 'fold_expand', { summary: '1' })).output).toBe(r.output);
    const e = failed(await call(s, 'fold_expand', { summary: summary.key }, { maxChars: 100 }), 'E_FOLD_TOOL_TOO_LARGE');
    expect(e.data).toEqual({ tool: 'fold_expand', summary: summary.key, chars: r.output.length, maxChars: 100 });
  });

  it('fold_peek pages through the originals with offset and length; the pages join into the whole text', async () => {
    const { repo } = await kind.open();
    const { s, c } = await desk(repo);
    const key = c.items.find((it) => it.state === 'summary')?.key ?? '';
    const whole = await call(s, 'fold_peek', { summary: key, length: 16_000 });
    const [head, ...rest] = whole.output.split('\n');
    const text = rest.join('\n');
    const total = Number(/of (\d+); the end\]$/.exec(head ?? '')?.[1]);
    expect(text.length).toBe(total);
    for (const o of (await s.expand(key)).originals) expect(text).toContain(`key=${o.key} role=${o.node.role}`);
    for (const o of (await s.expand(key)).originals) expect(text).toContain(`oid=${o.oid} ---\n`);
    let offset = 0;
    const pages: string[] = [];
    for (;;) {
      const r = await call(s, 'fold_peek', { summary: key, offset, length: 97 });
      expect(r.isError).toBe(false);
      const [h, ...body] = r.output.split('\n');
      pages.push(body.join('\n'));
      const next = /next offset (\d+)\]$/.exec(h ?? '');
      if (next === null) break;
      offset = Number(next[1]);
    }
    expect(pages.join('')).toBe(text);
    expect(pages.length).toBe(Math.ceil(total / 97));

    expect(failed(await call(s, 'fold_peek', { summary: key, offset: total }), 'E_FOLD_TOOL_OUT_OF_RANGE').data).toEqual({ tool: 'fold_peek', summary: key, offset: total, total });
    expect(failed(await call(s, 'fold_peek', { summary: key, length: 20_000 }), 'E_FOLD_TOOL_TOO_LARGE').data).toEqual({ tool: 'fold_peek', length: 20_000, maxChars: 16_000 });
    failed(await call(s, 'fold_peek', { summary: key, offset: -1 }), 'E_FOLD_TOOL_BAD_ARGUMENTS');
    failed(await call(s, 'fold_peek', { summary: key, length: 'all' }), 'E_FOLD_TOOL_BAD_ARGUMENTS');
    failed(await call(s, 'fold_peek', { summary: key, page: 2 }), 'E_FOLD_TOOL_BAD_ARGUMENTS');
    failed(await call(s, 'fold_peek', {}), 'E_FOLD_TOOL_BAD_ARGUMENTS');
    failed(await call(s, 'fold_peek', '{"summary":'), 'E_FOLD_TOOL_BAD_ARGUMENTS');
    failed(await call(s, 'fold_peek', '[1]'), 'E_FOLD_TOOL_BAD_ARGUMENTS');
    const unknown = failed(await call(s, 'fold_peek', { summary: 'sm_nope' }), 'E_FOLD_TOOL_UNKNOWN_SUMMARY');
    expect(unknown.message).toContain(`1=${key}`);
    failed(await call(s, 'fold_peek', { summary: '99' }), 'E_FOLD_TOOL_UNKNOWN_SUMMARY');
  });

  it('fold_search finds words in the folded originals, best first, bounded, with offsets fold_peek reads at', async () => {
    const { repo } = await kind.open();
    const { s, c } = await desk(repo);
    // The originals live under the summaries: expand reads them from there.
    const folded = new Set<string>();
    for (const it of c.items.filter((x) => x.state === 'summary')) for (const o of (await s.expand(it.key)).originals) folded.add(o.key);
    const r = await call(s, 'fold_search', { query: 'px0 LOST' });
    expect(r.isError).toBe(false);
    const out = JSON.parse(r.output) as { total: number; hits: { summary: string; key: string; offset: number; matched: string[]; snippet: string }[] };
    expect(out.hits.length).toBeGreaterThan(0);
    expect(out.hits[0]?.matched).toEqual(['px0', 'lost']); // the result that holds both words comes first
    expect(out.hits.length).toBeLessThanOrEqual(5);
    for (const h of out.hits) {
      expect(folded.has(h.key)).toBe(true);
      const at = await call(s, 'fold_peek', { summary: h.summary, offset: h.offset, length: 4 });
      expect(at.output.split('\n')[1]?.toLowerCase()).toMatch(/^(px0|lost)/);
    }
    const one = JSON.parse((await call(s, 'fold_search', { query: 'lost', limit: 1 })).output) as { total: number; hits: unknown[] };
    expect(one.hits.length).toBe(1);
    expect(one.total).toBeGreaterThan(1);
    expect(JSON.parse((await call(s, 'fold_search', { query: 'zebra' })).output)).toEqual({ query: 'zebra', total: 0, hits: [] });
    failed(await call(s, 'fold_search', { query: 'lost', limit: 21 }), 'E_FOLD_TOOL_BAD_ARGUMENTS');
    failed(await call(s, 'fold_search', { query: 'x'.repeat(201) }), 'E_FOLD_TOOL_TOO_LARGE');
    failed(await call(s, 'fold_search', { query: ' ' }), 'E_FOLD_TOOL_BAD_ARGUMENTS');
    failed(await call(s, 'fold_search', { query: 'lost', summary: 'sm_nope' }), 'E_FOLD_TOOL_UNKNOWN_SUMMARY');
    const small = JSON.parse((await call(s, 'fold_search', { query: 'order', limit: 20 }, { maxChars: 600 })).output) as { hits: unknown[] };
    expect(JSON.stringify(small).length).toBeLessThanOrEqual(600);
  });

  it('refuses unknown tools, reads only, and wants a commit', async () => {
    const { repo } = await kind.open();
    const { s } = await desk(repo);
    const before = (await s.log()).length;
    failed(await s.foldTool({ name: 'rm_rf', arguments: {} }), 'E_FOLD_TOOL_UNKNOWN_TOOL');
    expect((await s.foldTool({ name: 'fold_search', arguments: { query: 'lost' } })).isError).toBe(false);
    expect((await s.log()).length).toBe(before);
    const empty = await repo.createSession('empty', { model: 'openai:gpt-4o' });
    await expect(empty.foldTool({ name: 'fold_search', arguments: { query: 'x' } })).rejects.toMatchObject({ code: 'E_COMMIT_UNKNOWN_COMMIT' });
    await expect(s.foldTool({ name: 'fold_peek', arguments: {} }, { maxChars: 0 })).rejects.toBeInstanceOf(InvalidOptionError);
  });
});

describe('fold tool definitions', () => {
  it('one neutral list and the same tools in each provider format', () => {
    const neutral = foldTools();
    expect(neutral.map((t) => t.name)).toEqual([...FOLD_TOOL_NAMES]);
    expect(foldToolsFor('openai-chat').map((t) => t.function)).toEqual(neutral);
    expect(foldToolsFor('openai-responses')).toEqual(neutral.map((t) => ({ type: 'function', ...t, strict: false })));
    expect(foldToolsFor('anthropic')).toEqual(neutral.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })));
    expect(foldTools({ maxChars: 500 })[0]?.parameters).toMatchObject({ properties: { length: { maximum: 500 } } });
    expect(() => foldToolsFor('gemini' as 'anthropic')).toThrow(InvalidOptionError);
  });
});
