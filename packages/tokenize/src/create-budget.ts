import { InvalidBudgetError } from './errors.js';

/** Input of {@link createBudget}. Sizes are integer numbers of tokens. */
export interface BudgetOptions {
  /** Context window of the model, in tokens (e.g. from {@link resolveModel}). */
  readonly window: number;
  /** Tokens set aside for the system prompt. @defaultValue 0 */
  readonly system?: number;
  /** Tokens set aside for tool definitions. @defaultValue 0 */
  readonly tools?: number;
  /** Tokens kept free for the model's reply. */
  readonly outputReserve: number;
}

/** A validated four-way split of a context window. */
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
  /** Input capacity: `window − outputReserve`, tokens. */
  readonly input: number;
}

function tokens(field: string, value: unknown, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidBudgetError(field, value, 'expected a non-negative integer number of tokens');
  }
  return value;
}

/**
 * Splits a context window four ways — system / history / tools / output reserve.
 *
 * @remarks
 * All sizes are tokens; the reply reserve is never counted as room for history. The budget is validated as a whole
 * and refused, never clamped: sizes must be non-negative integers (`window` ≥ 1) and `system + tools + outputReserve`
 * must leave at least one token of history. When to fold within the history share is the rules' band (`@ctxgit/rules`:
 * `foldAt` 0.9, `foldTo` 0.5, `emergencyAt` 0.95 of it), not part of the split.
 *
 * @param options - see {@link BudgetOptions} (defaults: `system` 0, `tools` 0)
 * @returns the frozen budget
 * @throws {@link InvalidBudgetError} naming the first field at fault (`data.field`)
 * @example
 * ```ts
 * const b = createBudget({ window: 128_000, system: 2_000, tools: 3_000, outputReserve: 16_000 });
 * b.history; // 107000
 * b.input; // 112000
 * ```
 */
export function createBudget(options: BudgetOptions): Budget {
  if (typeof options !== 'object' || options === null) throw new InvalidBudgetError('options', options, 'expected an object');
  const window = tokens('window', options.window);
  if (window < 1) throw new InvalidBudgetError('window', window, 'expected at least 1 token');
  const system = tokens('system', options.system, 0);
  const tools = tokens('tools', options.tools, 0);
  const outputReserve = tokens('outputReserve', options.outputReserve);
  const fixed = system + tools + outputReserve;
  if (fixed >= window) {
    const field = outputReserve >= window ? 'outputReserve' : system + outputReserve >= window ? 'system' : 'tools';
    throw new InvalidBudgetError(field, options[field], `system + tools + outputReserve = ${fixed} leaves no history in a window of ${window}`);
  }
  return Object.freeze({
    window,
    system,
    tools,
    outputReserve,
    history: window - fixed,
    input: window - outputReserve,
  });
}
