import { describe, expect, it } from 'vitest';
import { InvalidUsageError, createOccupancyState, occupancy, recordUsage } from '../src/index.js';

describe('occupancy', () => {
  const empty = createOccupancyState({ window: 200_000 });

  it('is estimated before any measurement', () => {
    expect(occupancy(empty, { head: 'c1', estimated: 900 })).toEqual({ window: 200_000, total_used: 900, basis: 'estimated', estimated: 900 });
  });

  it('is measured for the head the usage was reported on, with calibration', () => {
    const s = recordUsage(empty, { head: 'c1', inputTokens: 100, cacheReadTokens: 1_000, cacheWriteTokens: 100 });
    expect(s).toEqual({ window: 200_000, measurement: { head: 'c1', total: 1_200 } });
    expect(empty).toEqual({ window: 200_000 });
    expect(occupancy(s, { head: 'c1', estimated: 1_000 })).toEqual({ window: 200_000, total_used: 1_200, basis: 'measured', estimated: 1_000, calibration: 1.2 });
    expect(occupancy(s, { head: 'c1', estimated: 0 })).toEqual({ window: 200_000, total_used: 1_200, basis: 'measured', estimated: 0 });
  });

  it('falls back to estimated once the head moves, and a new measurement replaces the old', () => {
    const s1 = recordUsage(empty, { head: 'c1', inputTokens: 1_100 });
    expect(occupancy(s1, { head: 'c2', estimated: 1_500 })).toEqual({ window: 200_000, total_used: 1_500, basis: 'estimated', estimated: 1_500 });
    const s2 = recordUsage(s1, { head: 'c2', inputTokens: 1_400 });
    expect(occupancy(s2, { head: 'c2', estimated: 1_500 }).basis).toBe('measured');
    expect(occupancy(s2, { head: 'c1', estimated: 1_000 }).basis).toBe('estimated');
  });

  it('refuses malformed usage and queries by field', () => {
    const field = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidUsageError);
        return (error as InvalidUsageError).data['field'];
      }
      return undefined;
    };
    expect(field(() => createOccupancyState({ window: 0 }))).toBe('window');
    expect(field(() => recordUsage(empty, { head: '', inputTokens: 1 }))).toBe('head');
    expect(field(() => recordUsage(empty, { head: 'h', inputTokens: -1 }))).toBe('inputTokens');
    expect(field(() => recordUsage(empty, { head: 'h', inputTokens: 1, cacheReadTokens: 0.5 }))).toBe('cacheReadTokens');
    expect(field(() => recordUsage(empty, { head: 'h', inputTokens: 1, cacheWriteTokens: Number.NaN }))).toBe('cacheWriteTokens');
    expect(field(() => occupancy(empty, { head: 'h', estimated: -3 }))).toBe('estimated');
  });
});
