import { InvalidBudgetError } from './errors.js';

/** Input of {@link createBudget}. Sizes are integer numbers of tokens; thresholds are fractions in (0, 1]. */
export interface BudgetOptions {
  /** Context window of the model, in tokens (e.g. from {@link resolveModel}). */
  readonly window: number;
  /** Tokens set aside for the system prompt. @defaultValue 0 */
  readonly system?: number;
  /** Tokens set aside for tool definitions. @defaultValue 0 */
  readonly tools?: number;
  /** Tokens kept free for the model's reply. */
  readonly outputReserve: number;
  /** Fold when input occupancy reaches this fraction of the input capacity. @defaultValue 0.8 */
  readonly foldAt?: number;
  /** Emergency (fold regardless of cache epochs) at this fraction of the input capacity. @defaultValue 0.95 */
  readonly emergencyAt?: number;
  /** A fold brings occupancy down to this fraction of the input capacity. @defaultValue 0.6 */
  readonly lowerMark?: number;
}

/** A validated four-way split of a context window, with its thresholds resolved to tokens. */
export interface Budget {
  /** Context window, tokens. */
  readonly window: number;
  /** System prompt share, tokens. */
  readonly system: number;
  /** Tool definitions share, tokens. */
  readonly tools: number;
  /** Reply reserve, tokens. */
  readonly outputReserve: number;
  /** History share: `window − system − tools − outputReserve`, tokens (always ≥ 1). */
  readonly history: number;
  /** Input capacity: `window − outputReserve`, tokens; the base of the thresholds. */
  readonly input: number;
  /** Fold threshold, fraction of `input`. */
  readonly foldAt: number;
  /** Emergency threshold, fraction of `input`. */
  readonly emergencyAt: number;
  /** Fold target, fraction of `input`. */
  readonly lowerMark: number;
  /** `floor(foldAt × input)`, tokens. */
  readonly foldAtTokens: number;
  /** `floor(emergencyAt × input)`, tokens. */
  readonly emergencyAtTokens: number;
  /** `floor(lowerMark × input)`, tokens. */
  readonly lowerMarkTokens: number;
}

function tokens(field: string, value: unknown, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidBudgetError(field, value, 'expected a non-negative integer number of tokens');
  }
  return value;
}

function fraction(field: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1) {
    throw new InvalidBudgetError(field, value, 'expected a fraction in (0, 1]');
  }
  return value;
}

/**
 * Splits a context window four ways — system / history / tools / output reserve — and resolves the fold thresholds.
 *
 * @remarks
 * All sizes are tokens. Thresholds are fractions of the input capacity `window − outputReserve`, so the reply reserve
 * is never counted as room for history. The budget is validated as a whole and refused, never clamped:
 * sizes must be non-negative integers (`window` ≥ 1), `system + tools + outputReserve` must leave at least one token
 * of history, thresholds must satisfy `0 < lowerMark < foldAt < emergencyAt ≤ 1`, and the lower mark must lie above
 * the fixed `system + tools` (otherwise no fold could reach it).
 *
 * @param options - see {@link BudgetOptions} (defaults: `system` 0, `tools` 0, `foldAt` 0.8, `emergencyAt` 0.95, `lowerMark` 0.6)
 * @returns the frozen budget
 * @throws {@link InvalidBudgetError} naming the first field at fault (`data.field`)
 * @example
 * ```ts
 * const b = createBudget({ window: 128_000, system: 2_000, tools: 3_000, outputReserve: 16_000 });
 * b.history; // 107000
 * b.foldAtTokens; // 89600 (0.8 × 112000)
 * ```
 */
export function createBudget(options: BudgetOptions): Budget {
  if (typeof options !== 'object' || options === null) throw new InvalidBudgetError('options', options, 'expected an object');
  const window = tokens('window', options.window);
  if (window < 1) throw new InvalidBudgetError('window', window, 'expected at least 1 token');
  const system = tokens('system', options.system, 0);
  const tools = tokens('tools', options.tools, 0);
  const outputReserve = tokens('outputReserve', options.outputReserve);
  const foldAt = fraction('foldAt', options.foldAt, 0.8);
  const emergencyAt = fraction('emergencyAt', options.emergencyAt, 0.95);
  const lowerMark = fraction('lowerMark', options.lowerMark, 0.6);
  const fixed = system + tools + outputReserve;
  if (fixed >= window) {
    const field = outputReserve >= window ? 'outputReserve' : system + outputReserve >= window ? 'system' : 'tools';
    throw new InvalidBudgetError(field, options[field], `system + tools + outputReserve = ${fixed} leaves no history in a window of ${window}`);
  }
  if (foldAt >= emergencyAt) throw new InvalidBudgetError('foldAt', foldAt, `must be below emergencyAt (${emergencyAt})`);
  if (lowerMark >= foldAt) throw new InvalidBudgetError('lowerMark', lowerMark, `must be below foldAt (${foldAt})`);
  const input = window - outputReserve;
  const lowerMarkTokens = Math.floor(lowerMark * input);
  if (lowerMarkTokens <= system + tools) {
    throw new InvalidBudgetError('lowerMark', lowerMark, `lowerMark × input = ${lowerMarkTokens} tokens does not exceed system + tools = ${system + tools}`);
  }
  return Object.freeze({
    window,
    system,
    tools,
    outputReserve,
    history: window - fixed,
    input,
    foldAt,
    emergencyAt,
    lowerMark,
    foldAtTokens: Math.floor(foldAt * input),
    emergencyAtTokens: Math.floor(emergencyAt * input),
    lowerMarkTokens,
  });
}
