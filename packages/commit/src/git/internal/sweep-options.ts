import { GitArgumentError } from '../errors.js';

/** The age threshold and clock of a sweep of dead writers' leftovers, checked, with their defaults (10 minutes, now). */
export function sweepOptions(opts: unknown): { readonly olderThanMs: number; readonly now: number } {
  if (typeof opts !== 'object' || opts === null) throw new GitArgumentError('opts', 'expected { olderThanMs?, now? }');
  const { olderThanMs = 600_000, now = Date.now() } = opts as { olderThanMs?: unknown; now?: unknown };
  if (typeof olderThanMs !== 'number' || Number.isNaN(olderThanMs) || olderThanMs < 0) throw new GitArgumentError('opts.olderThanMs', 'expected milliseconds >= 0');
  if (typeof now !== 'number' || !Number.isFinite(now)) throw new GitArgumentError('opts.now', 'expected milliseconds since the epoch');
  return { olderThanMs, now };
}
