import type { TranscriptEntry } from '@ctxgit/dag';

/** Where the synthetic clock of `ctxgit import` starts: 2024-01-01T00:00:00.000Z, ms since the epoch. */
export const SYNTHETIC_EPOCH_MS = Date.UTC(2024, 0, 1);

/**
 * The time of each entry, ms since the epoch: its own timestamp when it has one, else `stepMs` after the entry
 * before it; an untimed first entry is at {@link SYNTHETIC_EPOCH_MS}.
 */
export function syntheticTimes(entries: readonly TranscriptEntry[], stepMs: number): number[] {
  const out: number[] = [];
  let prev: number | undefined;
  for (const e of entries) {
    const t = e.createdAt ?? (prev === undefined ? SYNTHETIC_EPOCH_MS : prev + stepMs);
    out.push(t);
    prev = t;
  }
  return out;
}
