/**
 * Render benchmark: time of `render` on synthetic commits of 100, 1,000 and 10,000 items for every provider
 * (medians and p95 over several runs after warmup), the cost per item, and how close to linear it grows.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/render.ts [--quick]`
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { ContextCommit } from '@ctxgit/commit';
import type { ContextItem } from '@ctxgit/rules';
import { render, type ProviderName } from '@ctxgit/render';
import { median, p95 } from './stats.js';

/** One provider at one commit size. */
export interface RenderBenchRow {
  readonly provider: ProviderName;
  readonly items: number;
  readonly runs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  /** Median time per item, in microseconds. */
  readonly perItemUs: number;
  /** Bytes of the JSON body (text view: characters). */
  readonly bytes: number;
}

/** Growth of one provider: per-item cost at the largest size over that at the middle and smallest sizes (1 = linear). */
export interface RenderLinearity {
  readonly provider: ProviderName;
  readonly perItem10kOver1k: number;
  readonly perItem10kOver100: number;
}

/** What {@link runRenderBench} measured. */
export interface RenderBenchResult {
  readonly sizes: readonly number[];
  readonly rows: readonly RenderBenchRow[];
  readonly linearity: readonly RenderLinearity[];
}

const PROVIDERS: readonly ProviderName[] = ['openai-chat', 'openai-responses', 'anthropic', 'text'];
const SIZES = [100, 1_000, 10_000] as const;

const words = (seed: number, count: number): string => Array.from({ length: count }, (_, i) => `w${(seed * 31 + i * 7) % 997}`).join(' ');

/**
 * A deterministic agent session of `n` items: system rules, then turns of user, assistant and two tool items;
 * the oldest tenth folded into a summary, older tools aged or cleared, as the rules leave a long session.
 */
export function syntheticCommit(n: number): ContextCommit {
  const items: ContextItem[] = [];
  const item = (key: string, role: ContextItem['role'], blocks: ContextItem['blocks'], state: ContextItem['state'] = 'full'): ContextItem => ({
    key,
    sourceNodeId: key,
    role,
    state,
    locked: false,
    blocks,
    tokens: 50,
    reason: 'new',
    touchedAt: 0,
  });
  items.push(item('sys', 'system', [{ type: 'text', text: words(0, 300) }]));
  const folded = Math.floor(n / 10);
  for (let i = 1; items.length < n; i += 1) {
    const k = items.length;
    const state = k < folded ? 'summarized' : 'full';
    if (k === folded) items.push(item('sm_1', 'assistant', [{ type: 'text', text: words(k, 120) }], 'summary'));
    else if (i % 4 === 1) items.push(item(`u${k}`, 'user', [{ type: 'text', text: words(k, 40) }], state));
    else if (i % 4 === 2) items.push(item(`a${k}`, 'assistant', [{ type: 'text', text: words(k, 60) }], state));
    else {
      const aged = k < n - 40 && k % 3 === 0;
      const output = aged ? `[tool bash] output: ${words(k, 10)}… (900 chars)` : words(k, 150);
      items.push(
        item(`t${k}`, 'tool', [
          { type: 'tool_call', id: `call_${k}`, name: 'bash', arguments: JSON.stringify({ cmd: `cat file${k}.txt` }) },
          { type: 'tool_result', callId: `call_${k}`, name: 'bash', output },
        ], k < folded ? 'summarized' : aged ? 'aged' : 'full'),
      );
    }
  }
  items.push(item(`u${items.length}`, 'user', [{ type: 'text', text: 'next?' }]));
  return {
    id: '0'.repeat(40),
    session: 'bench',
    parentIds: [],
    headNodeId: items[items.length - 1]?.key ?? '',
    rulesVersion: 'bench',
    model: 'anthropic:claude-sonnet-4-5',
    window: 200_000,
    totalTokens: items.length * 50,
    items,
    summary: { added: 1, aged: 0, cleared: 0, folded: 0, firstChangedIndex: items.length - 1 },
    createdAt: 0,
  };
}


/**
 * Measures render time per provider and commit size.
 *
 * @param opts - `quick`: fewer runs per size (for CI).
 * @returns Medians, p95, per-item cost and linearity ratios.
 * @example
 * ```ts
 * const { rows } = await runRenderBench({ quick: true });
 * ```
 */
export async function runRenderBench(opts: { quick: boolean }): Promise<RenderBenchResult> {
  const runsFor = (n: number): number => (opts.quick ? { 100: 60, 1000: 20, 10000: 6 } : { 100: 300, 1000: 80, 10000: 20 })[n] ?? 5;
  const rows: RenderBenchRow[] = [];
  for (const n of SIZES) {
    const commit = syntheticCommit(n);
    for (const provider of PROVIDERS) {
      const once = (): unknown => render(commit, { provider, model: 'claude-sonnet-4-5' }); // every format names one model
      for (let w = 0; w < 3; w += 1) once();
      const times: number[] = [];
      for (let r = 0; r < runsFor(n); r += 1) {
        const start = performance.now();
        once();
        times.push(performance.now() - start);
      }
      const out = once();
      const medianMs = median(times);
      rows.push({
        provider,
        items: n,
        runs: times.length,
        medianMs,
        p95Ms: p95(times),
        perItemUs: (medianMs * 1000) / n,
        bytes: typeof out === 'string' ? out.length : JSON.stringify(out).length,
      });
    }
  }
  const perItem = (provider: ProviderName, n: number): number => rows.find((row) => row.provider === provider && row.items === n)?.perItemUs ?? Number.NaN;
  const linearity = PROVIDERS.map((provider) => ({
    provider,
    perItem10kOver1k: perItem(provider, 10_000) / perItem(provider, 1_000),
    perItem10kOver100: perItem(provider, 10_000) / perItem(provider, 100),
  }));
  return { sizes: SIZES, rows, linearity };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runRenderBench({ quick: process.argv.includes('--quick') });
  const pad = (value: string, width: number): string => value.padStart(width);
  process.stdout.write(`${'provider'.padEnd(18)}${pad('items', 8)}${pad('runs', 6)}${pad('median ms', 12)}${pad('p95 ms', 10)}${pad('µs/item', 10)}${pad('bytes', 12)}\n`);
  for (const row of result.rows) {
    process.stdout.write(
      `${row.provider.padEnd(18)}${pad(String(row.items), 8)}${pad(String(row.runs), 6)}${pad(row.medianMs.toFixed(3), 12)}${pad(row.p95Ms.toFixed(3), 10)}${pad(row.perItemUs.toFixed(2), 10)}${pad(String(row.bytes), 12)}\n`,
    );
  }
  for (const l of result.linearity) process.stdout.write(`${l.provider}: per-item cost 10k/1k = ${l.perItem10kOver1k.toFixed(2)}, 10k/100 = ${l.perItem10kOver100.toFixed(2)}\n`);
}
