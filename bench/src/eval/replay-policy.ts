import type { ContextItem } from '@ctxgit/rules';
import { distinctiveIdentifiers } from './identifiers.js';
import type { Policy } from './policy.js';
import { latestUserKey } from './policies/latest-user-key.js';
import type { PreparedCall } from './prepare-calls.js';
import type { RequestShape } from './price-conversation.js';
import type { TokenMeter } from './token-meter.js';

/** What one call of one policy produced, as the metrics need it. */
export interface CallRecord {
  /** Input tokens of the request as rendered and counted (the items' count when it could not be rendered); 0 when refused. */
  readonly tokens: number;
  readonly overBudget: boolean;
  /** The request could not be rendered into a valid provider body. */
  readonly invalid: boolean;
  /** Part of the previous request of the conversation was rewritten or dropped (not a pure extension of it). */
  readonly prefixBreak: boolean;
  /** Tokens of the previous request after the prefix this one repeats: what the cache loses. */
  readonly rewrittenTokens: number;
  /** Why the policy refused the call (its fallback was measured), or `null`. */
  readonly refused: string | null;
  /** The latest user item is in the request, `full` and unchanged. */
  readonly latestUserPresent: boolean;
  /** Every system item is in the request, `full` and unchanged. */
  readonly systemPresent: boolean;
  /** Tokens of the leading items byte-identical to the previous request of the conversation. */
  readonly sharedPrefixTokens: number;
  /** Bytes (UTF-8) of the rendered request identical to the previous rendered request. */
  readonly sharedPrefixBytes: number;
  readonly bytes: number;
  readonly reused: number;
  readonly visible: number;
  /** Of `reused` and `visible`, the identifiers shaped like identifiers (a digit, `_ . / :`, an inner `-` or capital). */
  readonly reusedShaped: number;
  readonly visibleShaped: number;
  /** The request as the price model sees it. */
  readonly shape: RequestShape;
}

/** A request as the provider receives it: the body text, and its input tokens (`null` when it could not be rendered: an invalid request). */
export interface RenderedRequest {
  readonly body: string;
  readonly tokens: number | null;
}

/** Renders the items of a request into the provider body (byte-exact, pure). */
export type RequestRenderer = (items: readonly ContextItem[]) => RenderedRequest;

const sameItem = (a: ContextItem | undefined, b: ContextItem): boolean =>
  a !== undefined && a.state === 'full' && JSON.stringify(a.blocks) === JSON.stringify(b.blocks);

function commonPrefixBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return Buffer.byteLength(b.slice(0, i));
}

/**
 * Replays the calls of one transcript through one policy under one budget.
 * @example
 * ```ts
 * const records = await replayPolicy(calls, slidingWindowPolicy, 4000, meter, render);
 * records.filter((r) => r.overBudget).length;
 * ```
 */
export async function replayPolicy(
  calls: readonly PreparedCall[],
  policy: Policy,
  budget: number,
  meter: TokenMeter,
  render: RequestRenderer,
): Promise<CallRecord[]> {
  const run = policy.start(budget, meter);
  const itemIds = new Map<string, ReadonlySet<string>>();
  const idsOf = (item: ContextItem): ReadonlySet<string> => {
    const key = meter.itemKey(item);
    let ids = itemIds.get(key);
    if (ids === undefined) {
      ids = new Set(distinctiveIdentifiers(meter.text(item.blocks)));
      itemIds.set(key, ids);
    }
    return ids;
  };
  const records: CallRecord[] = [];
  let previousKeys: string[] = [];
  let previousBody = '';
  let previousTokens = 0;
  for (const call of calls) {
    const output = await run.next({ history: call.historyItems, newNodes: call.newNodes, now: call.now });
    if (output.refused !== undefined) {
      // A refusal sends nothing: no tokens, nothing seen; the next request is compared with the last one sent.
      records.push({
        tokens: 0,
        overBudget: false,
        invalid: false,
        prefixBreak: false,
        rewrittenTokens: 0,
        refused: output.refused,
        latestUserPresent: true,
        systemPresent: true,
        sharedPrefixTokens: 0,
        sharedPrefixBytes: 0,
        bytes: 0,
        reused: call.reused.length,
        visible: 0,
        reusedShaped: call.reusedShaped.length,
        visibleShaped: 0,
        shape: { segments: [], trailingTokens: 0, breakpoints: [], at: call.at },
      });
      continue;
    }
    const items = output.items;
    const visible = items.filter((item) => item.state !== 'summarized');
    const byKey = new Map(items.map((item) => [item.key, item]));
    const userKey = latestUserKey(call.historyItems);
    const userItem = call.historyItems.find((item) => item.key === userKey);
    const keys = visible.map((item) => meter.itemKey(item));
    const segments = visible.map((item, i) => ({ key: keys[i] as string, tokens: meter.itemTokens(item) }));
    let shared = 0;
    let sharedTokens = 0;
    while (shared < keys.length && keys[shared] === previousKeys[shared]) sharedTokens += (segments[shared++] as { tokens: number }).tokens;
    const rendered = render(items);
    const body = rendered.body;
    const tokens = rendered.tokens ?? meter.requestTokens(items);
    const itemsTokens = segments.reduce((sum, s) => sum + s.tokens, 0);
    const previousSent = previousKeys.length;
    const leadingSystem = visible.findIndex((item) => item.role !== 'system');
    // the reused identifiers the request shows (the shaped ones are among them)
    const seen = new Set(call.reused.filter((id) => visible.some((item) => idsOf(item).has(id))));
    records.push({
      tokens,
      overBudget: tokens > budget,
      invalid: rendered.tokens === null,
      prefixBreak: previousSent > 0 && shared < previousSent,
      rewrittenTokens: previousSent > 0 ? previousTokens - sharedTokens : 0,
      refused: null,
      latestUserPresent: userItem === undefined || sameItem(byKey.get(userItem.key), userItem),
      systemPresent: call.historyItems.filter((item) => item.role === 'system').every((item) => sameItem(byKey.get(item.key), item)),
      sharedPrefixTokens: sharedTokens,
      sharedPrefixBytes: commonPrefixBytes(previousBody, body),
      bytes: Buffer.byteLength(body),
      reused: call.reused.length,
      visible: seen.size,
      reusedShaped: call.reusedShaped.length,
      visibleShaped: call.reusedShaped.filter((id) => seen.has(id)).length,
      shape: {
        segments,
        trailingTokens: Math.max(0, tokens - itemsTokens),
        breakpoints: [leadingSystem === -1 ? visible.length : leadingSystem, visible.length],
        at: call.at,
      },
    });
    previousKeys = keys;
    previousBody = body;
    previousTokens = itemsTokens;
  }
  return records;
}
