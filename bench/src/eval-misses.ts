/**
 * Why ctxgit's requests miss the identifiers a call reuses, for tuning the rules: one corpus at one budget (or the
 * chained long session), each missed identifier classified by what happened to the newest tool result that held it
 * (folded into a visible summary of which reason or under a nested one, aged, cleared, cut by the cap), with the
 * tool, how many calls back the result was, and the identifier. Writes nothing.
 *
 * `node --conditions=@ctxgit/source --import tsx bench/src/eval-misses.ts --corpus swe-agent --budget 32000 [--sample 6] [--long 410] [--list]`
 * (`--list` prints every miss, not only the tally). Each miss is also told as identifier-shaped or a plain word, and,
 * in a chained long session, as reused from the step's own conversation or from another one of the chain.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { itemFromNode } from '@ctxgit/rules';
import type { ContextItem } from '@ctxgit/rules';
import { loadTokenizer } from '@ctxgit/tokenize';
import { chainSessions } from './eval/chain-sessions.js';
import { evalPolicies } from './eval/eval-policies.js';
import { distinctiveIdentifiers } from './eval/identifiers.js';
import { loadCorpus } from './eval/load-corpus.js';
import { prepareCalls } from './eval/prepare-calls.js';
import { requestRenderer } from './eval/request-renderer.js';
import { createTokenMeter, OVERHEAD } from './eval/token-meter.js';
import { scriptArg } from './script-arg.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const argv = process.argv.slice(2);
const arg = (name: string, fallback: string): string => scriptArg(argv, name, fallback);
const budget = Number(arg('budget', '8000'));
const long = Number(arg('long', '0'));
const list = argv.includes('--list');
const at = new Set(arg('at', '').split(',').filter((x) => x !== '').map(Number));
const tokenizer = await loadTokenizer('o200k_base');
const renderer = requestRenderer(tokenizer);
const meter = createTokenMeter(tokenizer, OVERHEAD, (items) => renderer.count(items));
const policy = (await evalPolicies()).find((p) => p.id === arg('policy', 'ctxgit'));
if (policy === undefined) throw new Error('no such policy');
const [corpus] = (await loadCorpus(resolve(root, '../shared/corpus'), long > 0 ? Number.POSITIVE_INFINITY : Number(arg('sample', '6')))).filter((c) => c.name === arg('corpus', 'swe-agent'));
if (corpus === undefined) throw new Error('no such corpus');
const transcripts = long > 0 ? [chainSessions(`long-${corpus.name}`, corpus.transcripts, long)] : corpus.transcripts;
const tally = new Map<string, number>();
const kinds = new Map<string, number>();
/** The conversation of a chained session's node (`<pass>.<index>.` of its id, see chainSessions); '' outside a chain. */
const conversationOf = (id: string): string => /^\d+\.\d+\./u.exec(id)?.[0] ?? '';
let reusedTotal = 0;
let missedTotal = 0;
for (const t of transcripts) {
  const prepared = prepareCalls(t, (node) => itemFromNode(node, tokenizer));
  const run = policy.start(budget, meter);
  const callOf = new Map<string, number>();
  for (let i = 0; i < prepared.length; i++) {
    const call = prepared[i]!;
    for (const n of call.newNodes) callOf.set(n.id, i);
    const out = await run.next({ history: call.historyItems, newNodes: call.newNodes, now: call.now });
    reusedTotal += call.reused.length;
    const items = out.items;
    const visible = items.filter((it) => it.state !== 'summarized');
    const seen = new Set(visible.flatMap((it) => distinctiveIdentifiers(meter.text(it.blocks))));
    const byKey = new Map(items.map((it) => [it.key, it]));
    // Folded items are off the live list: the visible summary that lists one, else one nested under a summary.
    const foldedBy = new Map<string, ContextItem>();
    for (const it of visible) for (const k of it.folded ?? []) foldedBy.set(k, it);
    const gone = (key: string): string => `folded:${foldedBy.get(key)?.reason ?? 'nested'}`;
    if (at.has(i)) {
      const by = new Map<string, { n: number; tokens: number }>();
      for (const it of visible) {
        const k = `${it.role}/${it.state}/${it.reason}`;
        const e = by.get(k) ?? { n: 0, tokens: 0 };
        by.set(k, { n: e.n + 1, tokens: e.tokens + meter.itemTokens(it) });
      }
      process.stdout.write(`call ${i}: ${visible.length} items, ${meter.requestTokens(items)} tokens\n`);
      for (const [k, e] of [...by].sort((a, b) => b[1].tokens - a[1].tokens)) process.stdout.write(`  ${k.padEnd(40)} ${String(e.n).padStart(4)} ${String(e.tokens).padStart(7)}\n`);
      if (argv.includes('--show')) for (const it of visible) if (it.state !== 'full') process.stdout.write(`--- ${it.state} ${it.reason} ${meter.itemTokens(it)}\n${meter.text(it.blocks)}\n`);
    }
    for (const id of call.reused) {
      if (seen.has(id)) continue;
      missedTotal++;
      // The newest original tool result holding the identifier.
      let src: ContextItem | undefined;
      for (let k = call.historyItems.length - 1; k >= 0; k--) {
        const h = call.historyItems[k]!;
        if (h.role === 'tool' && distinctiveIdentifiers(meter.text(h.blocks)).includes(id)) {
          src = h;
          break;
        }
      }
      let why = 'no source';
      let tool = '';
      if (src !== undefined) {
        const block = src.blocks.find((b) => b.type === 'tool_result' || b.type === 'tool_call');
        tool = block?.type === 'tool_result' || block?.type === 'tool_call' ? block.name : '';
        let now = byKey.get(src.key);
        if (now === undefined) why = gone(src.key);
        else if (now.state === 'summarized') {
          while (now?.state === 'summarized' && now.mergedInto !== undefined) now = byKey.get(now.mergedInto);
          why = `folded:${now?.reason ?? '?'}`;
        } else if (now.state === 'full') why = JSON.stringify(now.blocks) === JSON.stringify(src.blocks) ? 'full?' : `full-cut:${now.reason}`;
        else why = `${now.state}:${now.reason}`;
      }
      // The newest earlier assistant item (its text or its calls) that wrote the identifier too, and what became of it.
      let said = 'unsaid';
      for (let k = call.historyItems.length - 1; k >= 0; k--) {
        const h = call.historyItems[k]!;
        if (h.role !== 'tool' && h.role !== 'assistant') continue;
        const text = h.role === 'assistant' ? meter.text(h.blocks) : meter.text(h.blocks.filter((b) => b.type === 'tool_call'));
        if (!distinctiveIdentifiers(text).includes(id)) continue;
        const now = byKey.get(h.key);
        said = `said:${h.role === 'tool' ? 'call' : 'text'}:${now === undefined ? gone(h.key) : now.state}`;
        break;
      }
      const ago = src === undefined ? -1 : i - (callOf.get(src.key) ?? i);
      const agoBand = ago < 0 ? '?' : ago <= 3 ? '0-3' : ago <= 10 ? '4-10' : ago <= 30 ? '11-30' : '31+';
      const k = `${why} ${said} ago=${agoBand}`;
      tally.set(k, (tally.get(k) ?? 0) + 1);
      // In a chained long session: whether the result came from another conversation of the chain than the step
      // (the agent that wrote the step never saw it), and whether the step writes the identifier shaped as one.
      const cross = src !== undefined && conversationOf(src.key) !== conversationOf(call.step.id);
      const shaped = call.reusedShaped.includes(id);
      const kind = `${shaped ? 'identifier-shaped' : 'plain word'}, ${cross ? 'from another conversation of the chain' : 'from its own conversation'}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if (list) process.stdout.write(`  call ${String(i).padStart(3)} ${why.padEnd(24)} ${tool.padEnd(14)} ${said.padEnd(22)} ago ${String(ago).padStart(3)} ${shaped ? 'shaped' : 'word  '} ${cross ? 'cross' : 'own  '} ${id}\n`);
    }
  }
}
process.stdout.write(`reused ${reusedTotal} missed ${missedTotal} recall ${(1 - missedTotal / Math.max(1, reusedTotal)).toFixed(4)}\n`);
for (const [k, n] of [...tally].sort((a, b) => b[1] - a[1])) process.stdout.write(`${String(n).padStart(5)} ${k}\n`);
for (const [k, n] of [...kinds].sort((a, b) => b[1] - a[1])) process.stdout.write(`${String(n).padStart(5)} ${k}\n`);
