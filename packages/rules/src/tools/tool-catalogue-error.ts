import { RulesError } from '../errors.js';

/** What is wrong with a tool of a catalogue. */
export type ToolProblem =
  | 'not_a_list'
  | 'not_an_object'
  | 'invalid_path'
  | 'invalid_name'
  | 'reserved_name'
  | 'duplicate_name'
  | 'group_conflict'
  | 'invalid_description'
  | 'invalid_schema'
  | 'too_many_tools';

/**
 * A tool catalogue was refused (code `E_RULES_TOOL_CATALOGUE`); nothing was stored. `data.tool` names the tool (its
 * path, or `#<index>` when it has none), `data.problem` the kind of fault and `data.detail` what to change.
 */
export class ToolCatalogueError extends RulesError {
  constructor(tool: string, problem: ToolProblem, detail: string) {
    super('E_RULES_TOOL_CATALOGUE', `tool ${tool}: ${detail}`, { tool, problem, detail });
  }
}
