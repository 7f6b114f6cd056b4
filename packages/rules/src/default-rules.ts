import type { RulesOptions } from './options.js';
import type { Rule } from './rule.js';
import { agingRule } from './rules/aging-rule.js';
import { capRule } from './rules/cap-rule.js';
import { foldRule } from './rules/fold-rule.js';
import { idleRule } from './rules/idle-rule.js';

/**
 * The standard pipeline: {@link capRule}, {@link agingRule}, {@link idleRule}, {@link foldRule}, all built
 * from the same options.
 *
 * @param options - See {@link RulesOptions}; every number has a default.
 * @returns The rules, in order.
 * @throws RulesInputError when an option is out of range.
 * @example
 * ```ts
 * const rules = defaultRules({ tailTurns: 3, capChars: 4000 });
 * pipelineVersion(rules); // 'cap@1+aging@1+idle@1+fold@2'
 * ```
 */
export function defaultRules(options: RulesOptions = {}): readonly Rule[] {
  return [capRule(options), agingRule(options), idleRule(options), foldRule(options)];
}
