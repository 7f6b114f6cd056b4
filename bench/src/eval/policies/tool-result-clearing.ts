import type { Block, ContextItem } from '@ctxgit/rules';
import type { Policy } from '../policy.js';

/** Options of {@link toolResultClearingPolicy}, named after Anthropic's `clear_tool_uses_20250919` fields. */
export interface ToolClearingOptions {
  /** Clearing runs when the request exceeds this many input tokens. @defaultValue the budget */
  readonly trigger?: number;
  /** The most recent tool uses kept intact. @defaultValue 3 */
  readonly keep?: number;
  /** Clearing applies only if it frees at least this many tokens. @defaultValue 0 */
  readonly clearAtLeast?: number;
  /** Tools whose results are never cleared. @defaultValue [] */
  readonly excludeTools?: readonly string[];
  /** Also replace the tool-call arguments. @defaultValue false */
  readonly clearToolInputs?: boolean;
  /** Text that replaces a cleared result. @defaultValue {@link CLEARED_PLACEHOLDER} */
  readonly placeholder?: string;
  /** `clearAtLeast` as a share of the budget instead of tokens (e.g. 0.25: clearing must free a quarter of it). @defaultValue none */
  readonly clearAtLeastShare?: number;
}

/** The placeholder of cleared results (the one LangChain's mirror of Anthropic's strategy uses). */
export const CLEARED_PLACEHOLDER = '[cleared]';

function clearBlocks(blocks: readonly Block[], placeholder: string, inputs: boolean): Block[] {
  return blocks.map((b) =>
    b.type === 'tool_result' ? { ...b, output: placeholder } : b.type === 'tool_call' && inputs ? { ...b, arguments: '{}' } : b,
  );
}

/**
 * Tool-result clearing in the style of Anthropic's context editing (`clear_tool_uses_20250919`): applied to the
 * full history of every request (it runs server-side, statelessly); once the request exceeds `trigger` tokens,
 * every tool result except the `keep` most recent tool uses is replaced with the placeholder — unless that
 * frees fewer than `clearAtLeast` tokens, in which case nothing is cleared. Nothing else is dropped, so a
 * request can stay over the budget.
 * @example
 * ```ts
 * const policy = toolResultClearingPolicy({ keep: 3 });
 * const run = policy.start(8000, meter);
 * await run.next(call); // tool results older than the 3 latest tool uses read "[cleared]"
 * ```
 */
export function toolResultClearingPolicy(options: ToolClearingOptions = {}): Policy {
  const keep = options.keep ?? 3;
  const clearAtLeast = options.clearAtLeast ?? 0;
  const exclude = new Set(options.excludeTools ?? []);
  const placeholder = options.placeholder ?? CLEARED_PLACEHOLDER;
  const inputs = options.clearToolInputs ?? false;
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keep must be a non-negative integer, got ${keep}`);
  const share = options.clearAtLeastShare;
  const policy: Policy = {
    id: share === undefined ? 'tool-clearing' : 'tool-clearing-at-least',
    label: share === undefined ? `Tool-result clearing (keep ${keep})` : `Tool-result clearing (keep ${keep}, clear_at_least ${share * 100} % of the budget)`,
    description:
      `Anthropic-style context editing: above the trigger (the budget), every tool result but the ${keep} most recent tool uses becomes "${placeholder}"; nothing else changes.` +
      (share === undefined ? '' : ` Clearing happens only when it frees at least ${share * 100} % of the budget (clear_at_least: a clearing invalidates the cached prefix, so it must be worth a cache write).`),
    start: (budget, meter) => ({
      next: async ({ history }) => {
        const atLeast = share === undefined ? clearAtLeast : Math.ceil(share * budget);
        const trigger = options.trigger ?? budget;
        const before = meter.requestTokens(history);
        if (before <= trigger) return { items: history };
        const tools = history.filter((item) => item.role === 'tool' && !exclude.has(toolName(item)));
        const clear = new Set(tools.slice(0, Math.max(0, tools.length - keep)));
        if (clear.size === 0) return { items: history };
        const out: ContextItem[] = history.map((item) =>
          clear.has(item) ? { ...item, state: 'cleared', reason: 'context_editing', blocks: clearBlocks(item.blocks, placeholder, inputs) } : item,
        );
        return { items: before - meter.requestTokens(out) >= atLeast ? out : history };
      },
    }),
  };
  return policy;
}

function toolName(item: ContextItem): string {
  for (const b of item.blocks) if (b.type !== 'text') return b.name;
  return '';
}
