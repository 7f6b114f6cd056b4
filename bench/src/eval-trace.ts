/**
 * One corpus at one budget, call by call, for tuning the rules: per conversation and call, the request tokens of
 * ctxgit and of the sliding window, the identifiers reused by the call that its request misses, whether each broke the
 * cached prefix, and the tokens it rewrote; then per conversation and policy, its recall, tokens a call and breaks.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/eval-trace.ts --corpus swe-agent --budget 8000 [--sample 6] [--long 0] [--price openai-gpt-4o] [--calls false]`
 * (`--long N` chains the whole corpus into one session of N calls instead; `--price` runs ctxgit at that price model's
 * cache prices, as the evaluation's cost under it does, instead of the rules' defaults; `--calls false` prints the
 * totals only).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { itemFromNode } from '@ctxgit/rules';
import { loadTokenizer } from '@ctxgit/tokenize';
import { chainSessions } from './eval/chain-sessions.js';
import { evalPolicies } from './eval/eval-policies.js';
import { loadCorpus } from './eval/load-corpus.js';
import { prepareCalls } from './eval/prepare-calls.js';
import { PRICINGS } from './eval/pricing.js';
import { replayPolicy } from './eval/replay-policy.js';
import { requestRenderer } from './eval/request-renderer.js';
import { createTokenMeter, OVERHEAD } from './eval/token-meter.js';
import { scriptArg } from './script-arg.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const arg = (name: string, fallback: string): string => scriptArg(argv, name, fallback);
const budget = Number(arg('budget', '8000'));
const long = Number(arg('long', '0'));
const tokenizer = await loadTokenizer('o200k_base');
const renderer = requestRenderer(tokenizer);
const meter = createTokenMeter(tokenizer, OVERHEAD, (items) => renderer.count(items));
const priceId = arg('price', '');
const pricing = PRICINGS.find((p) => p.id === priceId);
if (priceId !== '' && pricing === undefined) throw new Error(`--price: expected one of ${PRICINGS.map((p) => p.id).join(', ')}`);
const policies = (await evalPolicies())
  .filter((p) => p.id === 'ctxgit' || p.id === 'sliding-window')
  .map((p) => (pricing !== undefined && p.at !== undefined ? p.at(pricing) : p));
const calls = arg('calls', 'true') !== 'false';
const [corpus] = (await loadCorpus(resolve(root, '../shared/corpus'), long > 0 ? Number.POSITIVE_INFINITY : Number(arg('sample', '6')))).filter((c) => c.name === arg('corpus', 'swe-agent'));
if (corpus === undefined) throw new Error('no such corpus');
const transcripts = long > 0 ? [chainSessions(`long-${corpus.name}`, corpus.transcripts, long)] : corpus.transcripts;
for (const t of transcripts) {
  const prepared = prepareCalls(t, (node) => itemFromNode(node, tokenizer));
  const rows = await Promise.all(policies.map((p) => replayPolicy(prepared, p, budget, meter, renderer.render)));
  process.stdout.write(`conversation: ${prepared.length} calls\n`);
  for (let i = 0; calls && i < prepared.length; i++) {
    const cells = rows.map((r, k) => {
      const c = r[i];
      return c === undefined ? '' : `${(policies[k]?.id ?? '').slice(0, 7)} ${String(c.tokens).padStart(6)} ${c.visible < c.reused ? `miss ${c.reused - c.visible}/${c.reused} ` : ''}${c.prefixBreak ? `BREAK -${c.rewrittenTokens}` : ''}`.padEnd(44);
    });
    process.stdout.write(`  ${String(i).padStart(3)} ${cells.join(' ')}\n`);
  }
  rows.forEach((r, k) => {
    const sum = (f: (c: (typeof r)[number]) => number): number => r.reduce((n, c) => n + f(c), 0);
    const reused = sum((c) => c.reused);
    const visible = sum((c) => c.visible);
    const recall = reused === 0 ? 1 : visible / reused;
    process.stdout.write(
      `  ${policies[k]?.id}: recall ${recall.toFixed(4)} (${visible}/${reused}), ${Math.round(sum((c) => c.tokens) / Math.max(1, r.length))} tokens a call, ` +
        `${sum((c) => (c.prefixBreak ? 1 : 0))} breaks, ${sum((c) => (c.prefixBreak ? c.rewrittenTokens : 0))} tokens rewritten\n`,
    );
  });
}
