import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMemoTokenizer, loadTokenizer } from '@ctxgit/tokenize';
import type { EncodingName } from '@ctxgit/tokenize';
import { median, p95 } from './stats.js';

/** Contenders: ours, js-tiktoken's own `Tiktoken.encode`, gpt-tokenizer, and the tiktoken WASM package. */
export type TokenizeContender = 'ctxgit' | 'js-tiktoken' | 'gpt-tokenizer' | 'tiktoken-wasm';

/** Figures for one contender on one encoding. */
export interface ContenderFigures {
  /** Cold: fresh process, library import + rank load + one pass over the corpus; median over runs, ms. */
  readonly coldMs: number;
  /** Cold throughput: corpus UTF-8 MB / cold seconds (median run). */
  readonly coldMBps: number;
  /** Warm throughput over the corpus: median MB/s of several passes. */
  readonly warmMBps: number;
  /** Warm throughput, 95th percentile of pass times (slowest passes), MB/s. */
  readonly warmP95MBps: number;
  /** Sum of counts over the corpus (all contenders must agree). */
  readonly totalTokens: number;
  /** Time to count a run of 20,000 spaces (a long single BPE piece), ms; absent when skipped (js-tiktoken: > 30 s). */
  readonly spaces20kMs?: number;
}

/** Result of {@link runTokenizeBench}: JSON-able. */
export interface TokenizeBenchResult {
  readonly corpus: { readonly texts: number; readonly utf8MB: number };
  readonly runs: { readonly cold: number; readonly warm: number };
  readonly encodings: Record<EncodingName, Record<TokenizeContender, ContenderFigures>>;
  /** True when every contender gave the same count for every corpus text, for both encodings. */
  readonly countsEqual: boolean;
  /** Texts (per encoding and contender) where the contender disagreed with the WASM package, plus runs whose totals disagreed. */
  readonly mismatches: number;
  /** Memo hit cost (o200k), median ns per hit: texts up to 1024 code units (keyed by the text) and longer (keyed by SHA-1). */
  readonly memo: { readonly shortHitNs: number; readonly longHitNs: number; readonly shortTexts: number; readonly longTexts: number };
  /** Warm throughput of each contender relative to ours (o200k), > 1 is faster than ours. */
  readonly warmRatioVsOurs: Record<TokenizeContender, number>;
}

const CONTENDERS: readonly TokenizeContender[] = ['ctxgit', 'js-tiktoken', 'gpt-tokenizer', 'tiktoken-wasm'];
const ENCODINGS: readonly EncodingName[] = ['o200k_base', 'cl100k_base'];
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

type Counter = (text: string) => number;
/** The part of js-tiktoken's `Tiktoken` the bench calls. */
interface JsTiktoken {
  encode(text: string, allowedSpecial: string[], disallowedSpecial: string[]): number[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
function collect(out: string[], content: unknown): void {
  if (typeof content === 'string') out.push(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (typeof part === 'string') out.push(part);
      else if (isRecord(part)) {
        if (typeof part['text'] === 'string') out.push(part['text']);
        if (part['type'] === 'tool_use') out.push(JSON.stringify(part['input'] ?? null));
        if (part['type'] === 'tool_result') collect(out, part['content']);
      }
    }
  }
}
function message(out: string[], m: unknown): void {
  if (!isRecord(m)) return;
  collect(out, m['content']);
  if (Array.isArray(m['tool_calls'])) {
    for (const call of m['tool_calls']) {
      const fn = isRecord(call) ? call['function'] : undefined;
      if (isRecord(fn) && typeof fn['arguments'] === 'string') out.push(fn['arguments']);
    }
  }
}
const lines = (file: string): unknown[] => readFileSync(file, 'utf8').split('\n').map(parse);

/** Share of the corpus texts a quick run measures: every QUICK_STRIDE-th text. */
const QUICK_STRIDE = 10;

/** The texts a run measures: the whole corpus, or every {@link QUICK_STRIDE}-th text for a quick run. */
function benchTexts(quick: boolean): string[] {
  const all = corpusTexts();
  return quick ? all.filter((_, i) => i % QUICK_STRIDE === 0) : all;
}

/** Every message text of the shared corpus (same extraction as the tokenize tests). */
function corpusTexts(): string[] {
  const out: string[] = [];
  const dir = (name: string, ext: string): string[] =>
    readdirSync(path.join(CORPUS, name))
      .filter((f) => f.endsWith(ext))
      .sort()
      .map((f) => path.join(CORPUS, name, f));
  for (const file of dir('tau-bench-airline', '.jsonl')) {
    for (const row of lines(file)) if (isRecord(row)) for (const m of (row['messages'] ?? row['traj'] ?? []) as unknown[]) message(out, m);
  }
  for (const file of dir('swe-agent', '.traj')) {
    const traj = parse(readFileSync(file, 'utf8'));
    if (isRecord(traj) && Array.isArray(traj['history'])) for (const m of traj['history']) message(out, m);
  }
  for (const file of dir('claude-code', '.jsonl')) for (const row of lines(file)) if (isRecord(row)) message(out, row['message']);
  return out;
}

async function counterFor(contender: TokenizeContender, encoding: EncodingName): Promise<Counter> {
  switch (contender) {
    case 'ctxgit': {
      const tok = await loadTokenizer(encoding);
      return (text) => tok.count(text);
    }
    case 'js-tiktoken': {
      // js-tiktoken is a dependency of @ctxgit/tokenize, not of bench: resolve it from there.
      const from = createRequire(fileURLToPath(new URL('../../packages/tokenize/package.json', import.meta.url)));
      const load = async (spec: string): Promise<unknown> => import(pathToFileURL(from.resolve(spec)).href);
      const { Tiktoken } = (await load('js-tiktoken/lite')) as { Tiktoken: new (ranks: unknown) => JsTiktoken };
      const ranks = ((await load(`js-tiktoken/ranks/${encoding}`)) as { default: unknown }).default;
      const enc = new Tiktoken(ranks);
      return (text) => enc.encode(text, [], []).length;
    }
    case 'gpt-tokenizer': {
      const mod = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
      const options = { disallowedSpecial: new Set<string>() };
      return (text) => mod.countTokens(text, options);
    }
    case 'tiktoken-wasm': {
      const { get_encoding } = await import('tiktoken');
      const enc = get_encoding(encoding);
      return (text) => enc.encode(text, [], []).length;
    }
  }
}

const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;
const round = (x: number, digits = 2): number => Number(x.toFixed(digits));

/** Child-process entry: one cold measurement, printed as JSON. */
async function coldChild(contender: TokenizeContender, encoding: EncodingName, quick: boolean): Promise<void> {
  const texts = benchTexts(quick);
  const start = process.hrtime.bigint();
  const count = await counterFor(contender, encoding);
  let total = 0;
  for (const text of texts) total += count(text);
  process.stdout.write(JSON.stringify({ ms: ms(start), total }));
}

function coldRun(contender: TokenizeContender, encoding: EncodingName, quick: boolean): { ms: number; total: number } {
  const child = spawnSync(process.execPath, ['--conditions=@ctxgit/source', '--import', 'tsx', SELF, '--cold', contender, encoding, ...(quick ? ['--quick'] : [])], {
    cwd: path.dirname(path.dirname(SELF)),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`cold run of ${contender} ${encoding} failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as { ms: number; total: number };
}

/**
 * Tokenizer throughput on the shared corpus: cold (fresh process, incl. rank load) and warm, for ours, js-tiktoken's
 * own encode, gpt-tokenizer and the tiktoken WASM package, checking that all give equal counts; plus the memo hit cost.
 *
 * @param opts - `quick`: every 10th corpus text, 1 cold and 2 warm runs, no long-piece case; else the whole corpus, 3 cold and 5 warm runs
 *   (after one warm-up pass, whose per-text counts are compared with the WASM package's)
 * @returns the figures
 * @example
 * ```ts
 * const result = await runTokenizeBench({ quick: true });
 * result.encodings.o200k_base.ctxgit.warmMBps;
 * ```
 */
export async function runTokenizeBench(opts: { quick: boolean }): Promise<TokenizeBenchResult> {
  const texts = benchTexts(opts.quick);
  const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t, 'utf8'), 0);
  const mb = bytes / 1e6;
  const coldRuns = opts.quick ? 1 : 3;
  const warmRuns = opts.quick ? 2 : 5;
  const encodings = {} as Record<EncodingName, Record<TokenizeContender, ContenderFigures>>;
  let mismatches = 0;
  for (const encoding of ENCODINGS) {
    const figures = {} as Record<TokenizeContender, ContenderFigures>;
    const perText = {} as Record<TokenizeContender, number[]>;
    for (const c of CONTENDERS) {
      const count = await counterFor(c, encoding);
      const colds = Array.from({ length: coldRuns }, () => coldRun(c, encoding, opts.quick));
      const coldMs = median(colds.map((r) => r.ms));
      const counts = texts.map(count); // warmup pass, kept for the per-text comparison
      perText[c] = counts;
      const passes: number[] = [];
      let total = 0;
      for (let run = 0; run < warmRuns; run++) {
        const start = process.hrtime.bigint();
        total = 0;
        for (const text of texts) total += count(text);
        passes.push(ms(start));
      }
      if (colds.some((r) => r.total !== total) || counts.reduce((a, b) => a + b, 0) !== total) mismatches++;
      let spaces20kMs: number | undefined;
      if (!opts.quick && c !== 'js-tiktoken') {
        const start = process.hrtime.bigint();
        count(' '.repeat(20_000));
        spaces20kMs = round(ms(start), 1);
      }
      figures[c] = {
        coldMs: round(coldMs, 1),
        coldMBps: round(mb / (coldMs / 1000)),
        warmMBps: round(mb / (median(passes) / 1000)),
        warmP95MBps: round(mb / (p95(passes) / 1000)),
        totalTokens: total,
        ...(spaces20kMs === undefined ? {} : { spaces20kMs }),
      };
    }
    const oracle = perText['tiktoken-wasm'];
    for (const c of CONTENDERS) mismatches += perText[c].filter((n, i) => n !== oracle[i]).length;
    encodings[encoding] = figures;
  }
  const memo = createMemoTokenizer(await loadTokenizer('o200k_base'), { maxEntries: texts.length + 1 });
  const short = texts.filter((t) => t.length <= 1024);
  const long = texts.filter((t) => t.length > 1024);
  for (const t of texts) memo.count(t);
  const hitNs = (set: readonly string[]): number => {
    const samples: number[] = [];
    for (let run = 0; run < warmRuns + 1; run++) {
      const start = process.hrtime.bigint();
      for (const t of set) memo.count(t);
      if (run > 0) samples.push((ms(start) * 1e6) / set.length);
    }
    return round(median(samples), 0);
  };
  const memoFigures = { shortHitNs: hitNs(short), longHitNs: hitNs(long), shortTexts: short.length, longTexts: long.length };
  const ours = encodings.o200k_base.ctxgit.warmMBps;
  const warmRatioVsOurs = Object.fromEntries(CONTENDERS.map((c) => [c, round(encodings.o200k_base[c].warmMBps / ours)])) as Record<TokenizeContender, number>;
  const totals = ENCODINGS.every((e) => new Set(CONTENDERS.map((c) => encodings[e][c].totalTokens)).size === 1);
  return {
    corpus: { texts: texts.length, utf8MB: round(mb, 3) },
    runs: { cold: coldRuns, warm: warmRuns },
    encodings,
    countsEqual: mismatches === 0 && totals,
    mismatches,
    memo: memoFigures,
    warmRatioVsOurs,
  };
}

const direct = process.argv[1] !== undefined && path.resolve(process.argv[1]) === SELF;
if (direct) {
  const args = process.argv.slice(2);
  if (args[0] === '--cold') {
    await coldChild(args[1] as TokenizeContender, args[2] as EncodingName, args.includes('--quick'));
  } else {
    const result = await runTokenizeBench({ quick: args.includes('--quick') });
    const rows: string[] = [];
    for (const encoding of ENCODINGS) {
      for (const c of CONTENDERS) {
        const f = result.encodings[encoding][c];
        rows.push(
          [encoding.padEnd(12), c.padEnd(14), `${f.coldMs} ms`.padStart(11), `${f.coldMBps}`.padStart(8), `${f.warmMBps}`.padStart(8), `${f.warmP95MBps}`.padStart(8), `${f.totalTokens}`.padStart(9), `${f.spaces20kMs ?? '-'}`.padStart(9)].join(' '),
        );
      }
    }
    process.stdout.write(
      [
        `corpus: ${result.corpus.texts} texts, ${result.corpus.utf8MB} MB UTF-8; runs: cold ${result.runs.cold}, warm ${result.runs.warm} (medians)`,
        'encoding     contender          cold      coldMB/s  warmMB/s  p95MB/s   tokens  20k-sp ms',
        ...rows,
        `counts equal across all contenders: ${result.countsEqual} (mismatching texts: ${result.mismatches})`,
        `memo hit: ${result.memo.shortHitNs} ns (${result.memo.shortTexts} texts ≤ 1024 units), ${result.memo.longHitNs} ns (${result.memo.longTexts} longer, SHA-1 keyed)`,
        `warm o200k ratio vs ctxgit: ${CONTENDERS.map((c) => `${c} ${result.warmRatioVsOurs[c]}`).join(', ')}`,
        '',
      ].join('\n'),
    );
  }
}
