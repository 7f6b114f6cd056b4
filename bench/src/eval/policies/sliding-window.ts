import type { ContextItem } from '@ctxgit/rules';
import type { Policy } from '../policy.js';
import { latestUserKey } from './latest-user-key.js';
import { toolUnits } from './units.js';

/**
 * A sliding window: while the request is over the budget, drop the oldest unit (a message, or an assistant
 * message with its tool calls and results), never a system item nor the latest user turn. Stateless: each
 * call starts again from the full history, as the common client-side implementations do.
 */
export const slidingWindowPolicy: Policy = {
  id: 'sliding-window',
  label: 'Sliding window',
  description:
    'Drops the oldest messages (an assistant message together with its tool calls and results) until the request fits; keeps the system items and the latest user turn.',
  start: (budget, meter) => ({
    next: async ({ history }) => {
      const keep = latestUserKey(history);
      const units = toolUnits(history);
      let total = meter.requestTokens(history);
      const dropped = new Set<ContextItem[]>();
      for (const unit of units) {
        if (total <= budget) break;
        if (unit.some((item) => item.role === 'system' || item.key === keep)) continue;
        dropped.add(unit);
        total -= unit.reduce((sum, item) => sum + meter.itemTokens(item), 0);
        // the per-item figures estimate; the request as rendered decides
        if (total <= budget) total = meter.requestTokens(units.filter((u) => !dropped.has(u)).flat());
      }
      return { items: units.filter((unit) => !dropped.has(unit)).flat() };
    },
  }),
};
