import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidBudgetError, createBudget } from '../src/index.js';
import type { BudgetOptions } from '../src/index.js';

function fieldOf(options: BudgetOptions): unknown {
  try {
    createBudget(options);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidBudgetError);
    expect(error).toMatchObject({ code: 'E_TOKENIZE_INVALID_BUDGET' });
    return (error as InvalidBudgetError).data['field'];
  }
}

describe('createBudget', () => {
  it('splits the window four ways and resolves thresholds on the input capacity', () => {
    expect(createBudget({ window: 128_000, system: 2_000, tools: 3_000, outputReserve: 16_000 })).toEqual({
      window: 128_000,
      system: 2_000,
      tools: 3_000,
      outputReserve: 16_000,
      history: 107_000,
      input: 112_000,
      foldAt: 0.8,
      emergencyAt: 0.95,
      lowerMark: 0.6,
      foldAtTokens: 89_600,
      emergencyAtTokens: 106_400,
      lowerMarkTokens: 67_200,
    });
    const b = createBudget({ window: 1000, outputReserve: 100, foldAt: 0.5, emergencyAt: 1, lowerMark: 0.25 });
    expect(b).toMatchObject({ system: 0, tools: 0, history: 900, foldAtTokens: 450, emergencyAtTokens: 900, lowerMarkTokens: 225 });
    expect(Object.isFrozen(b)).toBe(true);
  });

  it('refuses impossible budgets by field, never clamping', () => {
    const ok = { window: 10_000, system: 100, tools: 100, outputReserve: 1_000 };
    expect(fieldOf(ok)).toBeUndefined();
    expect(fieldOf({ ...ok, window: 0 })).toBe('window');
    expect(fieldOf({ ...ok, window: 10.5 })).toBe('window');
    expect(fieldOf({ ...ok, system: -1 })).toBe('system');
    expect(fieldOf({ ...ok, tools: Number.NaN })).toBe('tools');
    expect(fieldOf({ ...ok, outputReserve: 10_000 })).toBe('outputReserve');
    expect(fieldOf({ ...ok, system: 9_000 })).toBe('system');
    expect(fieldOf({ ...ok, tools: 8_900 })).toBe('tools');
    expect(fieldOf({ ...ok, foldAt: 0 })).toBe('foldAt');
    expect(fieldOf({ ...ok, foldAt: 1.2 })).toBe('foldAt');
    expect(fieldOf({ ...ok, emergencyAt: 0.7 })).toBe('foldAt');
    expect(fieldOf({ ...ok, emergencyAt: Infinity })).toBe('emergencyAt');
    expect(fieldOf({ ...ok, lowerMark: 0.9 })).toBe('lowerMark');
    expect(fieldOf({ ...ok, system: 3_000, tools: 3_000 })).toBe('lowerMark');
    expect(fieldOf(null as unknown as BudgetOptions)).toBe('options');
    expect(() => createBudget({ ...ok, outputReserve: 10_000 })).toThrow(/never clamped/);
  });

  it('is total: every input either yields a consistent budget or a named refusal (property)', () => {
    const num = fc.oneof(fc.integer({ min: -10, max: 300_000 }), fc.double({ noNaN: false }), fc.constant(undefined));
    const frac = fc.oneof(fc.double({ min: -0.5, max: 1.5, noNaN: false }), fc.constantFrom(0.5, 0.8, 0.95, 1), fc.constant(undefined));
    fc.assert(
      fc.property(num, num, num, num, frac, frac, frac, (window, system, tools, outputReserve, foldAt, emergencyAt, lowerMark) => {
        const options = { window, system, tools, outputReserve, foldAt, emergencyAt, lowerMark } as unknown as BudgetOptions;
        let budget;
        try {
          budget = createBudget(options);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidBudgetError);
          expect(['window', 'system', 'tools', 'outputReserve', 'foldAt', 'emergencyAt', 'lowerMark']).toContain((error as InvalidBudgetError).data['field']);
          return;
        }
        expect(budget.system + budget.tools + budget.history + budget.outputReserve).toBe(budget.window);
        expect(budget.history).toBeGreaterThanOrEqual(1);
        expect(budget.lowerMark).toBeLessThan(budget.foldAt);
        expect(budget.foldAt).toBeLessThan(budget.emergencyAt);
        expect(budget.emergencyAtTokens).toBeLessThanOrEqual(budget.input);
        expect(budget.lowerMarkTokens).toBeGreaterThan(budget.system + budget.tools);
      }),
      { numRuns: 2000, seed: 3 },
    );
  });
});
