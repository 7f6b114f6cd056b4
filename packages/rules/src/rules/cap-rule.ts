import type { Block, ContextItem } from '../item.js';
import { factsOf } from '../list-facts.js';
import { ListEdit } from '../list-edit.js';
import type { RulesOptions } from '../options.js';
import { resolveRulesOptions } from '../resolve-options.js';
import type { Rule } from '../rule.js';
import { headOf } from '../head-of.js';
import { tailOf } from '../tail-of.js';
import { tailStart } from '../tail-start.js';

/** Each harder cut keeps half of what the previous one kept, at most this many times. */
const SQUEEZES = 5;
/** Share of the characters a fitted cut keeps of those its tokens allow: tokens are not spread evenly over a text. */
const FIT_MARGIN = 0.9;

/** The blocks with every result longer than `head + tail + 80` characters cut to its head and tail around a marker; `undefined` when none is. */
function cutBlocks(blocks: readonly Block[], head: number, tail: number): Block[] | undefined {
  let any = false;
  const out = blocks.map((b): Block => {
    if (b.type !== 'tool_result' || b.output.length <= head + tail + 80) return b;
    any = true;
    const h = headOf(b.output, head);
    const t = tailOf(b.output, tail);
    return { ...b, output: `${h}\n[… ctxgit cut ${b.output.length - h.length - t.length} of ${b.output.length} chars …]\n${t}` };
  });
  return any ? out : undefined;
}

/**
 * The per-item cap (`cap@3`), the last rule: it acts only under pressure, when the history is still above the
 * band's upper mark after folding (what is left is the tail, the protected chain, the latest round). Then a tool
 * result longer than `capChars` (default 4,000) keeps as much of its head and tail (in the ratio of `capHeadChars` to
 * `capTailChars`) as brings the history to the mark, at least its first `capHeadChars` (2,500) and last `capTailChars`
 * (1,000) characters, around a marker `\n[… ctxgit cut N of M chars …]\n`, oldest first and only after the newest
 * summary (the cached prefix), until the history is back under the upper mark. The results of the latest round
 * (from the last assistant step on) and those before the newest summary are cut only above the emergency mark
 * (a request that would not fit); if the history is still above it, every result is cut harder, halving what it
 * keeps, up to 5 times, until it fits. The state stays `full` (the cut is not a state change), the reason becomes
 * `capped`. Locked and pinned items are not cut. Under the upper mark nothing is cut: the model sees the results
 * whole while the request is under budget.
 *
 * @param options - See {@link RulesOptions}.
 * @returns The rule.
 * @example
 * ```ts
 * const rules = [foldRule(), capRule({ capChars: 2000, capHeadChars: 1200, capTailChars: 600 })];
 * ```
 */
export function capRule(options: RulesOptions = {}): Rule {
  const o = resolveRulesOptions(options);
  return {
    name: 'cap',
    version: 3,
    apply(items, ctx) {
      const band = ctx.band;
      let h = ctx.historyTokens(items);
      if (h <= band.upper) return items;
      const latest = tailStart(items, 1);
      let newest = 0;
      for (let i = items.length - 1; i >= 0; i--) {
        if ((items[i] as ContextItem).state === 'summary') {
          newest = i + 1;
          break;
        }
      }
      const positions = factsOf(ctx.cache, items).fullTools.filter((i) => {
        const it = items[i] as ContextItem;
        return !it.locked && it.pinned !== true;
      });
      const edit = new ListEdit(items, ctx.cache);
      const cut = (i: number, head: number, tail: number): void => {
        const it = items[i] as ContextItem;
        const blocks = cutBlocks(it.blocks, head, tail);
        if (blocks === undefined) return;
        const now = edit.at(i).tokens;
        const tokens = ctx.countTokens(blocks);
        if (tokens >= now) return;
        edit.set(i, { ...it, blocks, tokens, reason: 'capped' });
        h -= now - tokens;
      };
      // A result over `capChars` keeps as much of itself as brings the history to `mark` (its characters in proportion
      // to the tokens it may keep, head and tail in the ratio of `capHeadChars` to `capTailChars`), at least the
      // standard head and tail; when that is still too much, the standard cut.
      const standard = (i: number, mark: number): void => {
        const it = items[i] as ContextItem;
        const longest = it.blocks.reduce((m, b) => (b.type === 'tool_result' ? Math.max(m, b.output.length) : m), 0);
        if (longest <= o.capChars) return;
        const now = edit.at(i).tokens;
        const keep = Math.floor(longest * Math.max(0, now - (h - mark)) / now * FIT_MARGIN) - 80;
        if (keep > o.capHeadChars + o.capTailChars) {
          const head = Math.floor((keep * o.capHeadChars) / (o.capHeadChars + o.capTailChars));
          cut(i, head, keep - head);
          if (h <= mark) return;
        }
        cut(i, o.capHeadChars, o.capTailChars);
      };
      // Under the emergency mark: results after the newest summary and before the latest round, down to the upper mark.
      for (const i of positions) {
        if (h <= band.upper) break;
        if (i >= newest && i < latest) standard(i, band.upper);
      }
      // Above it (the request would not fit): any result, the latest round's included, then harder cuts.
      for (const i of positions) {
        if (h <= band.emergency) break;
        if (!edit.replaced(i)) standard(i, band.emergency);
      }
      for (let k = 1; k <= SQUEEZES && h > band.emergency; k++) {
        for (const i of positions) {
          if (h <= band.emergency) break;
          cut(i, Math.floor(o.capHeadChars / 2 ** k), Math.floor(o.capTailChars / 2 ** k));
        }
      }
      return edit.done();
    },
  };
}
