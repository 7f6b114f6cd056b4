import { RulesInputError } from '../errors.js';

/** How bounded and how eager the advertised tool view is; every number has a default. */
export interface ToolViewOptions {
  /** Branches (tools and sub-groups together) shown per level of the tree, and tools a search advertises. @defaultValue 7 */
  readonly maxBranches?: number;
  /** Groups open at once; opening one more closes the least recently used one. @defaultValue 4 */
  readonly maxOpenGroups?: number;
  /**
   * Navigation rounds (model calls whose only tool calls were `open_tools`) in a row, without a useful tool call,
   * after which the catalogue is searched automatically with the request's words and the hits advertised. @defaultValue 4
   */
  readonly searchAfterRounds?: number;
  /**
   * Open up front the group of the tool the first request's words match best (unless it is advertised); on a later
   * user message, only together with a change the round makes anyway. @defaultValue true
   */
  readonly autoOpen?: boolean;
  /** How many groups `autoOpen` opens: those of the best-matching tools, best first. @defaultValue 1 */
  readonly autoOpenGroups?: number;
  /**
   * A group the model closes stays advertised until the view changes anyway (an open or a search), so that a close
   * alone never breaks the provider's cached prefix; `false` removes it at the next commit. @defaultValue true
   */
  readonly deferClose?: boolean;
  /**
   * The group of a catalogue tool called by name while not advertised joins the view at its next change (an open, a
   * search, an automatic open) instead of changing the view by itself: the tool keeps working by name meanwhile, and a
   * change of the tools re-bills the whole cached request after them. `false` opens it at the next commit.
   * @defaultValue true
   */
  readonly deferCalledGroups?: boolean;
}

/** {@link ToolViewOptions} with every default filled in. */
export interface ResolvedToolViewOptions {
  readonly maxBranches: number;
  readonly maxOpenGroups: number;
  readonly searchAfterRounds: number;
  readonly autoOpen: boolean;
  readonly autoOpenGroups: number;
  readonly deferClose: boolean;
  readonly deferCalledGroups: boolean;
}

const count = (name: string, value: unknown, fallback: number): number => {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new RulesInputError(`tool view option ${name}`, `expected an integer >= 1, got ${String(v)}`);
  return v;
};

const flag = (name: string, value: unknown, fallback: boolean): boolean => {
  const v = value ?? fallback;
  if (typeof v !== 'boolean') throw new RulesInputError(`tool view option ${name}`, `expected a boolean, got ${String(v)}`);
  return v;
};

/** Fills the defaults of {@link ToolViewOptions}; throws `RulesInputError` on a bad value. */
export function resolveToolViewOptions(options: ToolViewOptions = {}): ResolvedToolViewOptions {
  if (typeof options !== 'object' || options === null) throw new RulesInputError('tool view options', 'expected an object');
  return {
    maxBranches: count('maxBranches', options.maxBranches, 7),
    maxOpenGroups: count('maxOpenGroups', options.maxOpenGroups, 4),
    searchAfterRounds: count('searchAfterRounds', options.searchAfterRounds, 4),
    autoOpen: flag('autoOpen', options.autoOpen, true),
    autoOpenGroups: count('autoOpenGroups', options.autoOpenGroups, 1),
    deferClose: flag('deferClose', options.deferClose, true),
    deferCalledGroups: flag('deferCalledGroups', options.deferCalledGroups, true),
  };
}
