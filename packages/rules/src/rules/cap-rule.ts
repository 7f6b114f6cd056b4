import type { Block, ContextItem } from '../item.js';
import type { RulesOptions } from '../options.js';
import { resolveRulesOptions } from '../resolve-options.js';
import type { Rule } from '../rule.js';
import { headOf } from '../head-of.js';
import { tailOf } from '../tail-of.js';
import { changesSinceSeen, forEachChanged, recordEdit } from '../list-lineage.js';

/**
 * The per-item cap (`cap@1`): a tool result longer than `capChars` (default 4,000) keeps its first
 * `capHeadChars` (2,500) and last `capTailChars` (1,000) characters around a marker
 * `\n[… ctxgit cut N of M chars …]\n`, even inside the tail window. The state stays `full` (the cut is
 * not a state change) and the reason becomes `capped`. Locked and pinned items are not cut.
 *
 * @param options - See {@link RulesOptions}.
 * @returns The rule.
 * @example
 * ```ts
 * const rules = [capRule({ capChars: 2000, capHeadChars: 1200, capTailChars: 600 })];
 * ```
 */
export function capRule(options: RulesOptions = {}): Rule {
  const o = resolveRulesOptions(options);
  // Lists this rule returned: nothing in them needs a cut, so a later list is checked only where it differs.
  const done = new WeakSet<readonly ContextItem[]>();
  return {
    name: 'cap',
    version: 1,
    apply(items) {
      let out: ContextItem[] | undefined;
      const changed: number[] = [];
      forEachChanged(items, changesSinceSeen(items, done), (it, i) => {
        if (it.role !== 'tool' || it.state !== 'full' || it.locked || it.pinned === true) return;
        if (!it.blocks.some((b) => b.type === 'tool_result' && b.output.length > o.capChars)) return;
        let any = false;
        const blocks = it.blocks.map((b): Block => {
          if (b.type !== 'tool_result' || b.output.length <= o.capChars) return b;
          any = true;
          const head = headOf(b.output, o.capHeadChars);
          const tail = tailOf(b.output, o.capTailChars);
          const cut = b.output.length - head.length - tail.length;
          return { ...b, output: `${head}\n[… ctxgit cut ${cut} of ${b.output.length} chars …]\n${tail}` };
        });
        if (!any) return;
        out ??= items.slice();
        out[i] = { ...it, blocks, reason: 'capped' };
        changed.push(i);
      });
      if (out !== undefined) recordEdit(out, items, changed);
      const result = out ?? items;
      done.add(result);
      return result;
    },
  };
}
