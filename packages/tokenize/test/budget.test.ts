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
  it('splits the window four ways', () => {
    expect(createBudget({ window: 128_000, system: 2_000, tools: 3_000, outputReserve: 16_000 })).toEqual({
      window: 128_000,
      system: 2_000,
      tools: 3_000,
      outputReserve: 16_000,
      history: 107_000,
      input: 112_000,
    });
    const b = createBudget({ window: 1000, outputReserve: 100 });
    expect(b).toEqual({ window: 1000, system: 0, tools: 0, outputReserve: 100, history: 900, input: 900 });
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
    expect(fieldOf({ ...ok, system: 4_000, tools: 5_000 })).toBe('tools');
    expect(fieldOf(null as unknown as BudgetOptions)).toBe('options');
    expect(() => createBudget({ ...ok, outputReserve: 10_000 })).toThrow(/never clamped/);
  });

  it('is total: every input either yields a consistent budget or a named refusal (property)', () => {
    const num = fc.oneof(fc.integer({ min: -10, max: 300_000 }), fc.double({ noNaN: false }), fc.constant(undefined));
    fc.assert(
      fc.property(num, num, num, num, (window, system, tools, outputReserve) => {
        const options = { window, system, tools, outputReserve } as unknown as BudgetOptions;
        let budget;
        try {
          budget = createBudget(options);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidBudgetError);
          expect(['window', 'system', 'tools', 'outputReserve']).toContain((error as InvalidBudgetError).data['field']);
          return;
        }
        expect(budget.system + budget.tools + budget.history + budget.outputReserve).toBe(budget.window);
        expect(budget.history).toBeGreaterThanOrEqual(1);
        expect(budget.input).toBe(budget.window - budget.outputReserve);
      }),
      { numRuns: 2000, seed: 3 },
    );
  });
});
