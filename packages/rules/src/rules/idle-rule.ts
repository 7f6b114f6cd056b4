import type { Block, ContextItem } from '../item.js';
import type { RulesOptions } from '../options.js';
import { protectionOf } from '../protection.js';
import { resolveRulesOptions } from '../resolve-options.js';
import { factsOf } from '../list-facts.js';
import { ListEdit } from '../list-edit.js';
import type { Rule } from '../rule.js';

/** The fixed, byte-stable text that replaces a cleared tool result. */
export const CLEARED_PLACEHOLDER = '[output cleared by ctxgit: idle; the original stays in the DAG]';

/**
 * Idle clearing (`idle@1`): an `aged` item whose `touchedAt` is at least `idleMs` (default 60 min) before
 * `now` becomes `cleared` with reason `idle_<minutes>min` (`idle_60min` by default); its tool result is
 * replaced by {@link CLEARED_PLACEHOLDER} when that is shorter (byte-stable, so the cache prefix stays stable) and its aged call
 * head stays. Protected-tool, pinned, anchor and locked items and the tool results of the critical chain are
 * not cleared. Runs only when the cache epoch is open.
 *
 * @param options - See {@link RulesOptions}.
 * @returns The rule.
 * @example
 * ```ts
 * const rules = [idleRule({ idleMs: 30 * 60_000 })]; // reason `idle_30min`
 * ```
 */
export function idleRule(options: RulesOptions = {}): Rule {
  const o = resolveRulesOptions(options);
  const reason = `idle_${Math.round(o.idleMs / 60_000)}min`;
  return {
    name: 'idle',
    version: 1,
    apply(items, ctx) {
      const due = (it: ContextItem): boolean => it.role === 'tool' && it.state === 'aged' && !it.locked && ctx.now - it.touchedAt >= o.idleMs;
      const candidates = factsOf(ctx.cache, items).agedTools.filter((i) => due(items[i] as ContextItem));
      if (candidates.length === 0 || !ctx.epochOpen(items)) return items;
      const prot = protectionOf(items, o, ctx);
      const edit = new ListEdit(items, ctx.cache);
      for (const i of candidates) {
        const it = items[i] as ContextItem;
        if (prot.protects(it)) continue;
        const blocks = it.blocks.map((b): Block => (b.type === 'tool_result' && b.output.length > CLEARED_PLACEHOLDER.length ? { ...b, output: CLEARED_PLACEHOLDER } : b));
        edit.set(i, { ...it, state: 'cleared', reason, blocks });
      }
      return edit.done();
    },
  };
}
