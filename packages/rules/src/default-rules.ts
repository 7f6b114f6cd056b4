import type { RulesOptions } from './options.js';
import type { Rule } from './rule.js';
import { agingRule } from './rules/aging-rule.js';
import { capRule } from './rules/cap-rule.js';
import { foldRule } from './rules/fold-rule.js';
import { idleRule } from './rules/idle-rule.js';

/**
 * The standard pipeline: {@link agingRule}, {@link idleRule}, {@link foldRule}, {@link capRule}, all built
 * from the same options. The cap comes last: it cuts only what folding could not bring under the upper mark.
 *
 * @param options - See {@link RulesOptions}; every number has a default.
 * @returns The rules, in order.
 * @throws RulesInputError when an option is out of range.
 * @example
 * ```ts
 * const rules = defaultRules({ tailTurns: 3, capChars: 4000 });
 * pipelineVersion(rules); // 'aging@3+idle@1+fold@14+cap@3'
 * ```
 */
export function defaultRules(options: RulesOptions = {}): readonly Rule[] {
  return [agingRule(options), idleRule(options), foldRule(options), capRule(options)];
}
