import { RulesInputError } from './errors.js';
import type { Rule } from './rule.js';

const NAME = /^[a-z][a-z0-9_-]*$/;

/**
 * The version string of a pipeline, recorded in every commit: `name@version` of each rule joined by `+`.
 *
 * @param rules - The rules, in order.
 * @returns E.g. `aging@3+idle@1+fold@14+cap@3`.
 * @throws RulesInputError when a name is not lower-case `[a-z][a-z0-9_-]*`, a version is not a
 * non-negative integer, or two rules share a name.
 * @example
 * ```ts
 * pipelineVersion(defaultRules()); // 'aging@3+idle@1+fold@14+cap@3'
 * ```
 */
export function pipelineVersion(rules: readonly Rule[]): string {
  const seen = new Set<string>();
  for (const r of rules) {
    if (!NAME.test(r.name)) throw new RulesInputError('rule name', `"${r.name}" must match ${String(NAME)}`);
    if (!Number.isInteger(r.version) || r.version < 0) throw new RulesInputError(`rule ${r.name}`, 'version must be a non-negative integer');
    if (seen.has(r.name)) throw new RulesInputError(`rule ${r.name}`, 'two rules share the name');
    seen.add(r.name);
  }
  return rules.map((r) => `${r.name}@${r.version}`).join('+');
}
