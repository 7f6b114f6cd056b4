import { CtxgitError } from '@ctxgit/errors';

/** Base class (a {@link CtxgitError}) of every error thrown by `@ctxgit/rules`; `code` is stable, `data` says what was wrong. */
export class RulesError extends CtxgitError<Readonly<Record<string, unknown>>> {
  constructor(code: string, message: string, data: Readonly<Record<string, unknown>>) {
    super(code, message, data);
  }
}

/** Which pipeline invariant a rule broke. */
export type InvariantKind =
  | 'loosened'
  | 'locked_changed'
  | 'vanished'
  | 'reordered'
  | 'duplicate_key'
  | 'bad_new_item'
  | 'summary_dangling'
  | 'summarized_dangling'
  | 'protected_folded';

/**
 * A rule broke an invariant of the pipeline (code `E_RULES_INVARIANT`); `data.rule` names the rule,
 * `data.invariant` the broken invariant and `data.key` the item.
 */
export class RulesInvariantError extends RulesError {
  constructor(rule: string, invariant: InvariantKind, key: string, detail: string) {
    super(
      'E_RULES_INVARIANT',
      `rule "${rule}" broke the invariant "${invariant}" on item "${key}": ${detail}. Fix the rule or remove it from the pipeline.`,
      { rule, invariant, key, detail },
    );
  }
}

/** The request a refusal was computed for (present when the pipeline ran with a request frame); all in tokens. */
export interface RefusedRequest {
  readonly window: number;
  readonly outputReserve: number;
  /** Tool definitions and other tokens outside the items. */
  readonly fixedTokens: number;
  /** The system items with their wrappers, and the per-request tokens. */
  readonly systemTokens: number;
  /** The latest round (the last user turn and every step and result after it) after every cut the rules allow. */
  readonly latestRoundTokens: number;
  /** The whole request as it would be sent. */
  readonly requestTokens: number;
}

/**
 * The rules could not bring the visible history under the emergency mark (code `E_RULES_OVER_BUDGET`): what is
 * left is pinned, protected, locked, the latest round, or too small to fold or cut. With a request frame, `data`
 * also names the request's parts (`window`, `outputReserve`, `fixedTokens`, `systemTokens`, `latestRoundTokens`,
 * `requestTokens`): nothing is sent over the window.
 */
export class RulesOverBudgetError extends RulesError {
  constructor(historyTokens: number, emergencyTokens: number, attempts: number, request?: RefusedRequest) {
    super(
      'E_RULES_OVER_BUDGET',
      `history holds ${historyTokens} tokens after ${attempts} fold attempt(s), above the emergency mark of ${emergencyTokens}` +
        (request === undefined
          ? ''
          : ` (the request would hold ${request.requestTokens} tokens: system ${request.systemTokens}, tools and other fixed ${request.fixedTokens}, ` +
            `latest round ${request.latestRoundTokens}; window ${request.window}, ${request.outputReserve} kept for the reply)`) +
        '; raise the budget or window, shorten the system prompt or tools, unpin items, or lower the protected share.',
      { historyTokens, emergencyTokens, attempts, ...(request === undefined ? {} : request) },
    );
  }
}

/** An argument of a public function was invalid (code `E_RULES_BAD_INPUT`); nothing was computed. */
export class RulesInputError extends RulesError {
  constructor(what: string, detail: string) {
    super('E_RULES_BAD_INPUT', `invalid ${what}: ${detail}`, { what, detail });
  }
}

/**
 * A fold absorbed summaries of the parent list and needs the items they folded to write the new brief from the
 * originals (code `E_RULES_FOLDED_NEEDED`); `data.summaries` names every one its walk found missing (`data.summary`
 * the first). Pass them through `context.foldedOf` and run again: the live list alone does not hold them.
 */
export class RulesFoldedNeededError extends RulesError {
  constructor(summaries: readonly [string, ...string[]]) {
    const [summary] = summaries;
    const more = summaries.length > 1 ? ` (and ${summaries.length - 1} more)` : '';
    super(
      'E_RULES_FOLDED_NEEDED',
      `summary ${summary}${more} is folded into a new one, but the items it folded were not given: pass them through context.foldedOf and run again.`,
      { summary, summaries: [...summaries] },
    );
  }
}
