import { RulesInputError } from './errors.js';
import { OPEN_TOOLS } from './tools/tool-catalogue.js';
import { DEFAULT_PROTECTED_TOOLS, type ResolvedRulesOptions, type RulesOptions } from './options.js';

const count = (name: string, value: number | undefined, fallback: number, min: number): number => {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min) throw new RulesInputError(`option ${name}`, `expected an integer >= ${min}, got ${String(v)}`);
  return v;
};

/** Fills defaults and validates; throws `RulesInputError` on a bad value. */
export function resolveRulesOptions(options: RulesOptions = {}): ResolvedRulesOptions {
  const chainShare = options.chainShare ?? 0.3;
  if (!(chainShare >= 0 && chainShare <= 1)) throw new RulesInputError('option chainShare', `expected a fraction in [0, 1], got ${String(chainShare)}`);
  const summaryShare = options.summaryShare ?? 0.2;
  if (!(summaryShare > 0 && summaryShare <= 1)) throw new RulesInputError('option summaryShare', `expected a fraction in (0, 1], got ${String(summaryShare)}`);
  const nonNegative = (name: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (!(Number.isFinite(v) && v >= 0)) throw new RulesInputError(`option ${name}`, `expected a finite number >= 0, got ${String(v)}`);
    return v;
  };
  const cacheWrite = options.cacheWrite ?? 1.25;
  if (!(Number.isFinite(cacheWrite) && cacheWrite > 0)) throw new RulesInputError('option cacheWrite', `expected a finite number > 0, got ${String(cacheWrite)}`);
  const capChars = count('capChars', options.capChars, 4000, 1);
  const capHeadChars = count('capHeadChars', options.capHeadChars, Math.min(2500, Math.floor(capChars * 0.625)), 0);
  const capTailChars = count('capTailChars', options.capTailChars, Math.min(1000, Math.floor(capChars * 0.25)), 0);
  if (capHeadChars + capTailChars + 80 > capChars) {
    throw new RulesInputError('option capHeadChars/capTailChars', `head + tail + 80 (marker) must not exceed capChars (${capChars})`);
  }
  const tools = [...DEFAULT_PROTECTED_TOOLS, ...(options.protectedTools ?? [])];
  for (const t of [...tools, ...(options.shortLivedTools ?? [])]) if (typeof t !== 'string' || t === '') throw new RulesInputError('option protectedTools', 'names must be non-empty strings');
  return {
    tailTurns: count('tailTurns', options.tailTurns, 3, 0),
    stubChars: count('stubChars', options.stubChars, 80, 0),
    callArgsChars: count('callArgsChars', options.callArgsChars, 200, 0),
    capChars,
    capHeadChars,
    capTailChars,
    protectedTools: new Set(tools.map((t) => t.toLowerCase())),
    idleMs: count('idleMs', options.idleMs, 3_600_000, 0),
    maxFoldAttempts: count('maxFoldAttempts', options.maxFoldAttempts, 8, 1),
    briefBytes: count('briefBytes', options.briefBytes, 1400, 64),
    briefShare: nonNegative('briefShare', options.briefShare, 0.1),
    cacheRead: nonNegative('cacheRead', options.cacheRead, 0.1),
    cacheWrite,
    graphProtection: options.graphProtection ?? true,
    chainShare,
    summaryShare,
    ageSuperseded: options.ageSuperseded ?? true,
    shortLivedTools: new Set((options.shortLivedTools ?? [OPEN_TOOLS]).map((t) => t.toLowerCase())),
  };
}
