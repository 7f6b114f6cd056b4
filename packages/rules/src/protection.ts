import { argumentText } from './argument-text.js';
import { containsToken } from './contains-token.js';
import { distinctiveTokens } from './distinctive-tokens.js';
import { idShaped } from './id-shaped.js';
import type { ContextItem } from './item.js';
import type { ResolvedRulesOptions } from './options.js';
import type { RuleContext } from './rule.js';
import type { RulesCache } from './rules-cache.js';
import { SpanScan } from './span-scan.js';

/** What rules must not touch on one list. Valid for the list it was made for. */
export interface Protection {
  /** Whether no rule may age, clear or fold `it`, an item of the list. */
  protects(it: ContextItem): boolean;
  /** Key of the latest (non-summary) user item, if any. */
  readonly latestUser: string | undefined;
  /** Whether the tool result `key` is superseded by a later identical call or operation on the same path. */
  superseded(key: string): boolean;
}

/** How much of the critical chain is protected: all of it, its newest part within `chainShare`, or none. */
export type ChainLimit = 'all' | 'share' | 'none';

/** What protection keeps in a cache: the protections of each list (per options), and the graph scans of the sessions seen last. */
interface ProtectionMemo {
  readonly byList: WeakMap<readonly ContextItem[], Map<string, Protection>>;
  /** A scan serves the lists of one session, each call costing what changed; the most recent first. */
  readonly scans: SpanScan[];
}

function newProtectionMemo(): ProtectionMemo {
  return { byList: new WeakMap(), scans: [] };
}

const MAX_SCANS = 8;

const toolName = (it: ContextItem): string | undefined => {
  for (const b of it.blocks) if (b.type === 'tool_call' || b.type === 'tool_result') return b.name.toLowerCase();
  return undefined;
};

function scanFor(cache: RulesCache, items: readonly ContextItem[]): SpanScan {
  const { scans } = cache.part(newProtectionMemo);
  let first: string | undefined;
  for (const it of items) {
    if (it.state !== 'summary' && (it.role === 'assistant' || it.role === 'tool')) {
      first = it.key;
      break;
    }
  }
  let k = scans.findIndex((s) => s.firstKey === first);
  if (k === -1) {
    if (scans.length >= MAX_SCANS) scans.pop();
    scans.unshift(new SpanScan(cache));
    k = 0;
  }
  const scan = scans[k] as SpanScan;
  if (k > 0) {
    scans.splice(k, 1);
    scans.unshift(scan);
  }
  return scan;
}

/** A run of identifier characters as written (its shape is read before it is lower-cased). */
const RUN = /[A-Za-z0-9][A-Za-z0-9_./:-]*[A-Za-z0-9]/g;

/**
 * The values the steps after position `from` pass on: the distinctive tokens of their text and of their calls'
 * argument values that are shaped like identifiers (a code, a path, a name joined by `_ . / : -`). Not the names of
 * the arguments (every call of a tool repeats them) nor plain words: a result that shares only those with the new
 * work is not what the new work uses.
 */
function valuesAfter(items: readonly ContextItem[], from: number): ReadonlySet<string> {
  const parts: string[] = [];
  for (let i = from + 1; i < items.length; i++) {
    const it = items[i] as ContextItem;
    if (it.state === 'summarized' || it.state === 'summary') continue;
    for (const b of it.blocks) {
      if (it.role === 'assistant' && b.type === 'text') parts.push(b.text);
      else if (b.type === 'tool_call') parts.push(argumentText(b.arguments, false));
    }
  }
  const text = parts.join('\n');
  const shaped = new Set<string>();
  for (const m of text.matchAll(RUN)) if (idShaped(m[0])) shaped.add(m[0].toLowerCase());
  const out = new Set<string>();
  for (const t of distinctiveTokens(text)) if (shaped.has(t)) out.add(t);
  return out;
}

/**
 * Protected items: system items, the latest user item, pinned and anchor items, protected tools, and the
 * tool results of the critical chain of {@link analyzeSpan} (`includeSummarized`) — all, or newest first while
 * their tokens fit in `chainShare` of the history budget, or none. A chain result before the latest user turn
 * is protected, once a step has answered that turn, only if a step since the turn passes on one of its values (an
 * identifier-shaped token of the step's text or of its calls' argument values): its work ended when the new turn
 * started new work. Memoized per list in `ctx.cache`; the graph is kept there per session and brought
 * up to date from the first changed item.
 */
export function protectionOf(items: readonly ContextItem[], options: ResolvedRulesOptions, ctx: RuleContext, chainLimit: ChainLimit = 'all'): Protection {
  const id = `${chainLimit}:${options.chainShare}:${options.graphProtection}:${ctx.band.historyBudget}:${[...options.protectedTools].join(',')}`;
  const { byList } = ctx.cache.part(newProtectionMemo);
  let byOpts = byList.get(items);
  if (byOpts === undefined) byList.set(items, (byOpts = new Map()));
  const hit = byOpts.get(id);
  if (hit !== undefined) return hit;
  let latestUser: string | undefined;
  let latestUserAt = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i] as ContextItem;
    if (it.role === 'user' && it.state !== 'summary' && it.state !== 'summarized') {
      latestUser = it.key;
      latestUserAt = i;
      break;
    }
  }
  const scan = scanFor(ctx.cache, items);
  scan.sync(items);
  let version = scan.version;
  const synced = (): SpanScan => {
    if (scan.version !== version) {
      scan.sync(items);
      version = scan.version;
    }
    return scan;
  };
  // A chain's work ends with its task: once a step has answered the latest user turn, a result before that turn stays
  // on the chain only if a step since the turn passes on one of its values (a shared argument name or word is not use).
  // Until a step has answered, nothing is released: the turn may be a confirmation that the next step acts on.
  let since: ReadonlySet<string> | undefined;
  const answered = latestUserAt >= 0 && items.slice(latestUserAt + 1).some((it) => it.role === 'assistant' && it.state !== 'summarized');
  const live = new Map<string, boolean>();
  const current = (it: ContextItem): boolean => {
    const at = latestUserAt < 0 ? undefined : scan.positionOf(it.key);
    if (!answered || at === undefined || at > latestUserAt) return true;
    let hit = live.get(it.key);
    if (hit === undefined) {
      since ??= valuesAfter(items, latestUserAt);
      const result = it.blocks.find((b) => b.type === 'tool_result');
      const text = result?.type === 'tool_result' ? result.output.toLowerCase() : '';
      hit = false;
      for (const t of since) {
        if (containsToken(text, t)) {
          hit = true;
          break;
        }
      }
      live.set(it.key, hit);
    }
    return hit;
  };
  // The newest chain results within the share, when only a share is protected.
  let share: Set<string> | undefined;
  if (options.graphProtection && chainLimit === 'share') {
    share = new Set();
    const byKey = new Map(items.map((it) => [it.key, it] as const));
    const allowance = options.chainShare * ctx.band.historyBudget;
    let used = 0;
    for (const key of scan.chainResultsNewestFirst()) {
      const it = byKey.get(key) as ContextItem;
      if (it.role !== 'tool' || it.state === 'summarized' || !current(it)) continue;
      if (used + it.tokens > allowance) break;
      used += it.tokens;
      share.add(key);
    }
  }
  const chainAll = options.graphProtection && chainLimit === 'all';
  const out: Protection = {
    latestUser,
    protects(it) {
      if (it.state === 'summarized') return false;
      if (it.key === latestUser || it.role === 'system' || it.pinned === true || it.isAnchor === true) return true;
      if (it.role !== 'tool') return false;
      // The chain first: a Set lookup, where the tool name costs a lower-casing.
      if (share === undefined && chainAll && synced().onChain(it.key) && current(it)) return true;
      const name = toolName(it);
      if (name !== undefined && options.protectedTools.has(name)) return true;
      return share !== undefined && share.has(it.key);
    },
    superseded(key) {
      return synced().superseded(key);
    },
  };
  byOpts.set(id, out);
  return out;
}
