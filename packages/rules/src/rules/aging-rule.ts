import type { ContextItem } from '../item.js';
import type { RulesOptions } from '../options.js';
import { protectionOf } from '../protection.js';
import { resolveRulesOptions } from '../resolve-options.js';
import type { Rule } from '../rule.js';
import { tailStart } from '../tail-start.js';
import { agedBlocks } from './aged-blocks.js';
import { factsOf } from '../list-facts.js';
import { recordEdit } from '../list-lineage.js';

/**
 * Tool aging (`aging@1`): a `full` tool item outside the tail window (the last `tailTurns` = 3 assistant
 * turns) becomes `aged` with reason `tail_window`: its result turns into the one-line stub
 * `[tool <name>] output: <first stubChars=80 chars>… (<N> chars)` (kept as is when not shorter) and its call keeps the arguments cut to
 * `callArgsChars` (200). A result superseded by a later identical call or a later operation on the same
 * file ages even inside the tail (reason `superseded`, when `ageSuperseded`). Protected tools, pinned,
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
    version: 1,
    apply(items, ctx) {
      const candidates = factsOf(items).fullTools;
      if (candidates.length === 0 || !ctx.epochOpen(items)) return items;
      const tail = tailStart(items, o.tailTurns);
      const prot = protectionOf(items, o, ctx);
      let out: ContextItem[] | undefined;
      const changed: number[] = [];
      for (const i of candidates) {
        const it = items[i] as ContextItem;
        if (it.locked || prot.protects(it)) continue;
        const reason = i < tail ? 'tail_window' : o.ageSuperseded && prot.superseded(it.key) ? 'superseded' : undefined;
        if (reason === undefined) continue;
        out ??= items.slice();
        out[i] = { ...it, state: 'aged', reason, blocks: agedBlocks(it.blocks, it.outputChars, o) };
        changed.push(i);
      }
      if (out === undefined) return items;
      recordEdit(out, items, changed);
      return out;
    },
  };
}
