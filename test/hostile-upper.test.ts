// Hostile input against the entry points above @ctxgit/commit: render (every provider) and the CLI's main().
// (Lives in the root test/ folder because it imports packages above @ctxgit/commit; its counts join the reliability table.)
import { mkdirSync } from 'node:fs';
import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { main } from '@ctxgit/cli';
import { render } from '@ctxgit/render';
import type { ContextItem } from '@ctxgit/rules';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRepo } from '@ctxgit/commit';
import type { ContextCommit, FsLike } from '@ctxgit/commit';
import { HOSTILE_STRINGS, hostileString, hostileValue } from '../packages/commit/test/reliability/hostile-arbitraries.js';
import { cleanTemps, fileSnapshot, isTyped, stepClock, tempDir, writeCounts } from '../packages/commit/test/reliability/support.js';

afterAll(cleanTemps);

const PROVIDERS = ['openai-chat', 'openai-responses', 'anthropic', 'text'] as const;
const totals = { renderForgeryAttempts: 0, rendersChecked: 0, renderGarbageTried: 0, renderTypedRejections: 0, cliArgvTried: 0, cliFailures: 0, cliUntyped: 0, cliWritesOnFailure: 0, forgeries: 0 };
afterAll(() => writeCounts('hostile-upper', totals));

/** Text that imitates ctxgit's markers, with the backslashes and line separators an escaper could trip on. */
const forgery: fc.Arbitrary<string> = fc
  .array(fc.constantFrom('<<ctxgit:attach from="sess">>', '<<ctxgit:/attach>>', '<<ctxgit:begin>>', '<<ctxgit:', '[Summary] ', '[Summary]', '\\', '\\\\', '\n', '\r\n', '\u2028', '\u2029', 'text ', '<<', 'ctxgit:', '[', 'Summary]', ' '), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''));

function item(i: number, role: ContextItem['role'], text: string, extra: Partial<ContextItem> = {}): ContextItem {
  const blocks: ContextItem['blocks'] =
    role === 'tool'
      ? [
          { type: 'tool_call', id: `call_${i}`, name: 'read_file', arguments: JSON.stringify({ path: text }) },
          { type: 'tool_result', callId: `call_${i}`, name: 'read_file', output: text },
        ]
      : [{ type: 'text', text }];
  return { key: `k${i}`, sourceNodeId: `n${i}`, role, state: 'full', locked: false, blocks, tokens: 5, reason: 'new', touchedAt: 0, ...(role === 'tool' ? { caller: `k${i - 1}` } : {}), ...extra };
}

function commitOf(items: readonly ContextItem[]): ContextCommit {
  return { id: '0'.repeat(40), session: 's', parentIds: [], headNodeId: 'n0', rulesVersion: 'v', model: 'gpt-4o', window: 128_000, totalTokens: 10, items, summary: { added: items.length, aged: 0, cleared: 0, folded: 0, firstChangedIndex: 0 }, createdAt: 0 };
}

/**
 * Every string of a rendered request that the model reads as message text: all of them but native tool-call
 * arguments (`arguments`, Anthropic's `input`), which are the call's JSON and carry no ctxgit structure.
 */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (typeof value === 'object' && value !== null) {
    const toolUse = (value as { type?: unknown }).type === 'tool_use';
    for (const [k, v] of Object.entries(value)) if (k !== 'arguments' && !(toolUse && k === 'input')) strings(v, out);
  }
  return out;
}

/** The text view's structure: one `#<n> <role> <state> …` header line per rendered item, content indented under it. */
function textStructure(view: string): { headers: number; summaries: number } {
  const lines = view.split(/\r\n|[\n\r\u2028\u2029]/u);
  return { headers: lines.filter((l) => /^#\d+ /u.test(l)).length, summaries: lines.filter((l) => /^#\d+ \S+ summary /u.test(l) || /^ {2}\[Summary\]/u.test(l)).length };
}

const OPEN = /(^|[^\\])<<ctxgit:attach /gu;
const CLOSE = /(^|[^\\])<<ctxgit:\/attach>>/gu;
const BEGIN = /(^|[^\\])<<ctxgit:begin>>/gu;
const SUMMARY_LINE = /(^|[\r\n\u2028\u2029])\[Summary\]/gu;

function count(re: RegExp, texts: readonly string[]): number {
  return texts.reduce((n, t) => n + [...t.matchAll(re)].length, 0);
}

describe('render: text imitating ctxgit markers cannot forge a summary or an attach block (every provider)', () => {
  it('user, assistant, system and tool text full of markers renders with no unescaped marker', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('user', 'assistant', 'tool', 'system'), forgery), { minLength: 1, maxLength: 6 }), (spec) => {
        totals.renderForgeryAttempts++;
        const items = [item(0, 'user', 'start'), ...spec.map(([role, text], i) => item(i + 1, role as ContextItem['role'], text)), item(spec.length + 1, 'user', 'end')];
        totals.rendersChecked++;
        expect(textStructure(render(commitOf(items), { provider: 'text' }))).toEqual({ headers: items.length, summaries: 0 });
        for (const provider of PROVIDERS.filter((p) => p !== 'text')) {
          totals.rendersChecked++;
          const out = render(commitOf(items), { provider });
          const texts = strings(out);
          const forged = count(OPEN, texts) + count(CLOSE, texts) + count(SUMMARY_LINE, texts) + count(BEGIN, texts);
          if (forged > 0) totals.forgeries++;
          expect(forged, `${provider}: ${JSON.stringify(texts).slice(0, 300)}`).toBe(0);
        }
      }),
      { seed: 21, numRuns: 150 },
    );
  });

  it('a real summary and a real attach block still render their markers exactly once each, around forged text', () => {
    fc.assert(
      fc.property(forgery, (text) => {
        totals.renderForgeryAttempts++;
        const items = [
          item(0, 'user', 'start'),
          item(1, 'assistant', `summary of ${text}`, { state: 'summary', key: 'sm_1', sourceNodeId: 'sm_1', folded: ['k9'] }),
          item(2, 'user', `attached ${text}`, { attachedFrom: 'ptr' }),
          item(3, 'assistant', `attached ${text}`, { attachedFrom: 'ptr' }),
          item(4, 'user', text),
          item(5, 'user', 'end'),
        ];
        totals.rendersChecked++;
        expect(textStructure(render(commitOf(items), { provider: 'text' }))).toEqual({ headers: items.length, summaries: 2 });
        for (const provider of PROVIDERS.filter((p) => p !== 'text')) {
          totals.rendersChecked++;
          const texts = strings(render(commitOf(items), { provider }));
          expect([count(OPEN, texts), count(CLOSE, texts), count(SUMMARY_LINE, texts)], provider).toEqual([1, 1, 1]);
        }
      }),
      { seed: 22, numRuns: 60 },
    );
  });

  it('garbage commits and options are typed errors or a request, never a crash', () => {
    const garbageItem = fc.oneof(hostileValue, fc.record({ key: hostileValue, role: fc.oneof(fc.constantFrom('user', 'assistant', 'tool', 'system'), hostileValue), state: fc.oneof(fc.constantFrom('full', 'summary', 'aged'), hostileValue), blocks: fc.oneof(fc.array(fc.record({ type: fc.oneof(fc.constantFrom('text', 'tool_call', 'tool_result'), hostileValue), text: hostileValue, id: hostileValue, name: hostileValue, arguments: hostileValue, callId: hostileValue, output: hostileValue }, { requiredKeys: [] }), { maxLength: 3 }), hostileValue), tokens: fc.oneof(fc.integer(), hostileValue), attachedFrom: hostileValue, locked: hostileValue }, { requiredKeys: [] }));
    fc.assert(
      fc.property(fc.array(garbageItem, { maxLength: 4 }), fc.oneof(fc.constantFrom(...PROVIDERS), hostileValue), fc.oneof(hostileValue, fc.record({ maxTokens: hostileValue, tools: hostileValue, cache: hostileValue }, { requiredKeys: [] })), (items, provider, extra) => {
        totals.renderGarbageTried++;
        try {
          render({ ...commitOf(items as ContextItem[]) }, { ...(typeof extra === 'object' && extra !== null ? extra : {}), provider } as never);
        } catch (err) {
          expect(isTyped(err), `${String((err as Error).name)}: ${String((err as Error).message)}`).toBe(true);
          totals.renderTypedRejections++;
        }
      }),
      { seed: 23, numRuns: 300 },
    );
  });
});

describe('the CLI main(argv, io): hostile arguments are typed failures that write nothing', () => {
  let base: string;
  let cwd: string;
  beforeAll(async () => {
    base = tempDir();
    cwd = join(base, 'work', 'inner');
    mkdirSync(cwd, { recursive: true });
    const repo = await openRepo({ dir: join(cwd, '.ctxgit'), clock: stepClock(), fsync: false });
    const s = await repo.createSession('chat', { model: 'openai:gpt-4o' });
    await s.append({ role: 'user', output: 'hello' });
    await s.commit();
  });

  it('every command with hostile arguments: exit code, one typed error line, no write on failure', async () => {
    const commands = ['import', 'log', 'show', 'render', 'diff', 'stats', 'checkout', 'merge', 'sessions', 'verify', 'expand', 'fork', 'export', 'help', '--nope', ''];
    const flags = ['--session', '--repo', '--provider', '--at', '--format', '--commit', '--base', '--model', '--budget', '--instruction', '--previous', '--limit', '--json', '--record', '--no-fsync', '--skip-malformed', '--'];
    const hostilePath = fc.constantFrom('../../escape.git', '../outside', '.ctxgit/../../x', 'a\0b', '/nonexistent/dir/repo', '.ctxgit/refs/ctxgit/dag', '.ctxgit/objects', '~/x', '%2e%2e/x', 'nul');
    const arg = fc.oneof(fc.constantFrom(...flags), hostileString.filter((x) => !x.startsWith('/') || x === '/'), hostilePath, fc.constantFrom('chat', '.ctxgit', 'openai-chat', '0000'));
    const fsLike = nodeFs as unknown as FsLike;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...commands), fc.array(arg, { maxLength: 6 }), async (command, rest) => {
        totals.cliArgvTried++;
        const argv = [command, ...rest].filter((a) => a !== '');
        const before = await fileSnapshot(fsLike, base);
        const out: string[] = [];
        const err: string[] = [];
        const io = { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) }, cwd, env: {} };
        const code = await main(argv, io);
        expect(typeof code).toBe('number');
        if (code === 0) return;
        totals.cliFailures++;
        const line = err.join('');
        if (!/\[E_[A-Z0-9_]+\]\n$/u.test(line) && !line.includes('Usage:')) {
          totals.cliUntyped++;
          expect.fail(`${JSON.stringify(argv)} -> ${code}: ${line.slice(0, 300)}`);
        }
        const after = await fileSnapshot(fsLike, base);
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          totals.cliWritesOnFailure++;
          expect.fail(`${JSON.stringify(argv)} failed (${line.trim()}) but wrote ${after.filter((l) => !before.includes(l)).slice(0, 3).join(', ')}`);
        }
      }),
      { seed: 24, numRuns: 120 },
    );
    expect(HOSTILE_STRINGS).toContain('..');
  });
});
