import { defaultRules, itemFromNode, runPipeline } from '@ctxgit/rules';
import type { BandOptions, ContextItem, RulesOptions } from '@ctxgit/rules';
import type { Tokenizer } from '@ctxgit/tokenize';
import type { Policy } from '../policy.js';
import { MESSAGE_OVERHEAD_TOKENS, REQUEST_OVERHEAD_TOKENS } from '../token-meter.js';

/** Options of {@link ctxgitPolicy}: which part of ctxgit's default pipeline to switch off. */
export interface CtxgitPolicyOptions {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  /** Passed to `defaultRules`. @defaultValue {} */
  readonly rules?: RulesOptions;
  /** Passed as the pipeline's band. @defaultValue {} */
  readonly band?: BandOptions;
  /** Drop the `fold` rule from the pipeline. @defaultValue false */
  readonly noFolding?: boolean;
}

/**
 * ctxgit's rules as a policy: a chain of pipeline runs, each on the previous call's items plus the nodes
 * added since (`runPipeline` of `@ctxgit/rules`). The history budget is the request budget minus the
 * system items and the request overhead, and the pipeline counts every item with the evaluation's meter
 * (its text plus the per-message overhead), so that its budget means what the evaluation measures. A call
 * the pipeline refuses (e.g. `RulesOverBudgetError`) is recorded as refused and measured as the previous
 * items plus the new nodes, unprocessed; the chain continues from there.
 * @example
 * ```ts
 * const policy = ctxgitPolicy(tokenizer, { id: 'ctxgit', label: 'ctxgit', description: 'defaults' });
 * ```
 */
export function ctxgitPolicy(tokenizer: Tokenizer, options: CtxgitPolicyOptions): Policy {
  const counting: Tokenizer = {
    encoding: tokenizer.encoding,
    estimated: tokenizer.estimated,
    count: (text) => tokenizer.count(text) + MESSAGE_OVERHEAD_TOKENS,
  };
  const rules = defaultRules(options.rules ?? {}).filter((rule) => !(options.noFolding === true && rule.name === 'fold'));
  return {
    id: options.id,
    label: options.label,
    description: options.description,
    start: (budget, meter) => {
      let items: readonly ContextItem[] = [];
      return {
        next: async ({ history, newNodes, now }) => {
          const system = history.filter((item) => item.role === 'system').reduce((sum, item) => sum + meter.itemTokens(item), 0);
          const historyBudget = budget - system - REQUEST_OVERHEAD_TOKENS;
          try {
            const result = runPipeline(items, newNodes, { now, tokenizer: counting, historyBudget, rules, band: options.band ?? {} });
            items = result.items;
            return { items };
          } catch (e) {
            items = [...items, ...newNodes.map((node) => itemFromNode(node, counting))];
            return { items, refused: e instanceof Error ? `${(e as { code?: string }).code ?? e.name}: ${e.message}` : String(e) };
          }
        },
      };
    },
  };
}
