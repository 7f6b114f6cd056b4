import type { ContextItem } from '../item.js';
import { factsOf } from '../list-facts.js';
import { ListEdit } from '../list-edit.js';
import type { ResolvedRulesOptions, RulesOptions } from '../options.js';
import { protectionOf } from '../protection.js';
import { resolveRulesOptions } from '../resolve-options.js';
import type { Rule } from '../rule.js';
import { tailStart } from '../tail-start.js';
import { agedBlocks } from './aged-blocks.js';

/** Position of the last assistant item, or -1. */
function lastAssistant(items: readonly ContextItem[]): number {
  for (let i = items.length - 1; i >= 0; i--) if ((items[i] as ContextItem).role === 'assistant') return i;
  return -1;
}

/** A result of a short-lived tool (navigation) that no pin, anchor or protected name keeps. */
function isShortLived(it: ContextItem, o: ResolvedRulesOptions): boolean {
  const block = it.blocks.find((b) => b.type === 'tool_call' || b.type === 'tool_result');
  const name = block?.type === 'tool_call' || block?.type === 'tool_result' ? block.name.toLowerCase() : undefined;
  return name !== undefined && o.shortLivedTools.has(name) && !o.protectedTools.has(name) && it.pinned !== true && it.isAnchor !== true;
}

/**
 * Tool aging (`aging@3`): a `full` tool item outside the tail window (the last `tailTurns` = 3 assistant
 * turns) becomes `aged` with reason `tail_window`: its result turns into the one-line stub
 * `[tool <name>] output: <first stubChars=80 chars>… (<N> chars)` (kept as is when not shorter) and its call keeps the arguments cut to
 * `callArgsChars` (200). A result superseded by a later identical call or a later operation on the same
 * file ages even inside the tail (reason `superseded`, when `ageSuperseded`). A result of a short-lived tool
 * (`shortLivedTools`, by default the catalogue's `open_tools`) ages as soon as an assistant item follows it (reason
 * `short_lived`), whatever the tail and the critical chain say. Protected tools, pinned,
 * anchor, locked items and the tool results of the critical chain never age. Runs only when the
 * cache epoch is open.
 *
 * @param options - See {@link RulesOptions}.
 * @returns The rule.
 * @example
 * ```ts
 * const rules = [agingRule({ tailTurns: 2, protectedTools: ['read_plan'] })];
 * ```
 */
export function agingRule(options: RulesOptions = {}): Rule {
  const o = resolveRulesOptions(options);
  return {
    name: 'aging',
    version: 3,
    apply(items, ctx) {
      const candidates = factsOf(ctx.cache, items).fullTools;
      if (candidates.length === 0 || !ctx.epochOpen(items)) return items;
      const tail = tailStart(items, o.tailTurns);
      const prot = protectionOf(items, o, ctx);
      const edit = new ListEdit(items, ctx.cache);
      const lastA = lastAssistant(items);
      for (const i of candidates) {
        const it = items[i] as ContextItem;
        if (it.role !== 'tool' || it.state !== 'full' || it.locked) continue;
        const shortLived = i < lastA && isShortLived(it, o);
        if (!shortLived && prot.protects(it)) continue;
        const reason = shortLived ? 'short_lived' : i < tail ? 'tail_window' : o.ageSuperseded && prot.superseded(it.key) ? 'superseded' : undefined;
        if (reason === undefined) continue;
        edit.set(i, { ...it, state: 'aged', reason, blocks: agedBlocks(it.blocks, it.outputChars, o) });
      }
      return edit.done();
    },
  };
}
