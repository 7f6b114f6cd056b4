import { RulesInputError } from './errors.js';
import type { BandOptions } from './pipeline.js';
import type { Band } from './rule.js';

/** Validates the band and turns its fractions into token marks. */
export function resolveBand(historyBudget: number, options: BandOptions = {}): Band {
  if (!Number.isFinite(historyBudget) || historyBudget <= 0) throw new RulesInputError('historyBudget', `expected a positive number of tokens, got ${String(historyBudget)}`);
  const foldAt = options.foldAt ?? 0.9;
  const foldTo = options.foldTo ?? 0.5;
  const emergencyAt = options.emergencyAt ?? 0.95;
  if (!(foldTo > 0 && foldTo <= foldAt && foldAt <= emergencyAt && emergencyAt <= 1)) {
    throw new RulesInputError('band', `expected 0 < foldTo <= foldAt <= emergencyAt <= 1, got ${foldTo}, ${foldAt}, ${emergencyAt}`);
  }
  const coldAfterMs = options.coldAfterMs ?? 3_600_000;
  if (!(coldAfterMs >= 0)) throw new RulesInputError('band.coldAfterMs', 'expected a non-negative number of milliseconds');
  return {
    historyBudget,
    upper: Math.floor(foldAt * historyBudget),
    lower: Math.floor(foldTo * historyBudget),
    emergency: Math.floor(emergencyAt * historyBudget),
    epochs: options.epochs ?? true,
    coldAfterMs,
  };
}
