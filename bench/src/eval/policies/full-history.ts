import type { Policy } from '../policy.js';

/** The full history, never compacted: what a client sends without any policy. */
export const fullHistoryPolicy: Policy = {
  id: 'full-history',
  label: 'Full history',
  description: 'Every message, every call; no compaction (the reference for ratios).',
  start: () => ({ next: async (call) => ({ items: call.history }) }),
};
