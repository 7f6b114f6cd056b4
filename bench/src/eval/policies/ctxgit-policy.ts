import { defaultRules, itemFromNode, runPipeline, RulesCache } from '@ctxgit/rules';
import type { BandOptions, ContextItem, RulesOptions } from '@ctxgit/rules';
import type { Tokenizer } from '@ctxgit/tokenize';
import type { Policy } from '../policy.js';
import type { CachePricing } from '../pricing.js';
import { OVERHEAD } from '../token-meter.js';

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
  /** Run at each price model's cache prices (`cacheRead`, `cacheWrite`), as a session takes its model's. @defaultValue false: the rules' defaults (Anthropic's) */
  readonly priced?: boolean;
}

/**
 * ctxgit's rules as a policy: a chain of pipeline runs, each on the previous call's items plus the nodes
 * added since (`runPipeline` of `@ctxgit/rules`), with the request frame of the evaluation: the window is the
 * budget and the items are counted with the wrappers of the OpenAI chat request it renders (`messageOverhead`), so
 * the rules hold the budget against the request the provider receives. A call the pipeline refuses (the latest
 * round cannot fit) is recorded as refused and sends nothing; the chain continues from the previous items plus
 * the new nodes.
 * @example
 * ```ts
 * const policy = ctxgitPolicy(tokenizer, { id: 'ctxgit', label: 'ctxgit', description: 'defaults' });
 * ```
 */
export function ctxgitPolicy(tokenizer: Tokenizer, options: CtxgitPolicyOptions): Policy {
  const rules = defaultRules(options.rules ?? {}).filter((rule) => !(options.noFolding === true && rule.name === 'fold'));
  const at = (p: CachePricing): Policy => ctxgitPolicy(tokenizer, { ...options, priced: false, rules: { ...options.rules, cacheRead: p.readMultiplier, cacheWrite: p.writeMultiplier } });
  return {
    id: options.id,
    label: options.label,
    description: options.description,
    ...(options.priced === true ? { at } : {}),
    start: (budget) => {
      let items: readonly ContextItem[] = [];
      const request = { window: budget, overhead: OVERHEAD };
      const cache = new RulesCache();
      // What each summary folded: off the live list, read when a later fold absorbs the summary.
      const folds = new Map<string, readonly ContextItem[]>();
      return {
        next: async ({ newNodes, now }) => {
          try {
            const result = runPipeline(items, newNodes, { now, tokenizer, request, rules, band: options.band ?? {}, cache, foldedOf: (key) => folds.get(key) });
            for (const [key, list] of result.folds) folds.set(key, list);
            items = result.items;
            return { items };
          } catch (e) {
            // Counted as the pipeline counts them (with their wrappers), for the runs that follow.
            items = [...items, ...newNodes.map((node) => withWrappers(itemFromNode(node, tokenizer)))];
            return { items, refused: e instanceof Error ? `${(e as { code?: string }).code ?? e.name}: ${e.message}` : String(e) };
          }
        },
      };
    },
  };
}

function withWrappers(item: ContextItem): ContextItem {
  return { ...item, tokens: item.tokens + OVERHEAD.perMessage + (item.role === 'tool' ? OVERHEAD.perToolCall : 0) };
}
