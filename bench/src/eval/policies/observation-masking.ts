import type { Block, ContextItem } from '@ctxgit/rules';
import type { Policy } from '../policy.js';

/** The text that replaces a masked observation. */
export const MASKED_PLACEHOLDER = '[old tool output omitted]';

/**
 * Observation masking ("The Complexity Trap", Lindenbauer et al., 2025): on every call, every tool result except the
 * `keep` most recent ones is replaced with a placeholder; the calls, the agent's reasoning and every other message
 * stay. Stateless and always on (no trigger), as in the paper; nothing else is dropped, so a request can stay over the
 * budget.
 * @example
 * ```ts
 * const policy = observationMaskingPolicy(5);
 * await policy.start(8000, meter).next(call); // tool results before the 5 latest read the placeholder
 * ```
 */
export function observationMaskingPolicy(keep: number): Policy {
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keep must be a non-negative integer, got ${keep}`);
  return {
    id: `masking-${keep}`,
    label: `Observation masking (keep ${keep})`,
    description: `Every tool result but the ${keep} most recent reads "${MASKED_PLACEHOLDER}" on every call; calls and messages stay.`,
    start: () => ({
      next: async ({ history }) => {
        const tools = history.filter((item) => item.role === 'tool');
        const mask = new Set(tools.slice(0, Math.max(0, tools.length - keep)));
        if (mask.size === 0) return { items: history };
        const out = history.map((item): ContextItem =>
          mask.has(item)
            ? { ...item, state: 'cleared', reason: 'masked', blocks: item.blocks.map((b): Block => (b.type === 'tool_result' ? { ...b, output: MASKED_PLACEHOLDER } : b)) }
            : item,
        );
        return { items: out };
      },
    }),
  };
}
