import { describe, expect, it } from 'vitest';
import { medianRun } from '../src/stats.js';

describe('medianRun', () => {
  it('picks the run of the median figure and lists every figure ascending', () => {
    const runs = [{ id: 'a', ms: 3 }, { id: 'b', ms: 1 }, { id: 'c', ms: 2 }];
    expect(medianRun(runs, (r) => r.ms)).toEqual({ run: { id: 'c', ms: 2 }, figures: [1, 2, 3] });
  });

  it('takes the upper middle of an even count, the only run of one, and refuses none', () => {
    expect(medianRun([4, 1, 3, 2], (x) => x).run).toBe(3);
    expect(medianRun([7], (x) => x)).toEqual({ run: 7, figures: [7] });
    expect(() => medianRun([], (x: number) => x)).toThrow('no runs');
  });
});
