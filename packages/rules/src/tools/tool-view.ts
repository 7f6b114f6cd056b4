import type { AdvertisedTool } from './catalogue-tool.js';
import { parentGroup, toolName } from './catalogue-tool.js';
import { parseOpenTools } from './open-tools-call.js';
import { OPEN_TOOLS, type ToolCatalogue } from './tool-catalogue.js';
import type { ResolvedToolViewOptions } from './tool-view-options.js';
import { wordsOf } from './words.js';

/** One block of advertised tools: an open group, or the hits of a search. */
export interface ToolViewEntry {
  readonly kind: 'group' | 'search';
  /** The group path (`''` is the top level), or the search words joined by spaces. */
  readonly id: string;
  /** Tool paths advertised for it, in order. */
  readonly tools: readonly string[];
  /** Sub-groups listed in the `open_tools` description (groups only). */
  readonly groups: readonly string[];
  /** Branches of the group, or matches of the search, not shown. */
  readonly hidden: number;
  /** Round it was opened or one of its tools last called (least recently used closes first). */
  readonly usedAt: number;
  /** Closed by the model, still advertised until the view next changes (`deferClose`). */
  readonly closing: boolean;
  /** Tools of the group shown because the model called them by name, newest first: they keep their places. */
  readonly called: readonly string[];
}

/** The navigable view of a catalogue that one commit advertises; stored with the commit. */
export interface ToolView {
  /** Rounds (commits) since the view started, this one included. */
  readonly round: number;
  readonly entries: readonly ToolViewEntry[];
  /** Navigation rounds in a row without a useful tool call. */
  readonly navRounds: number;
  /** Whether the automatic search has been offered since the last useful call or user message. */
  readonly offered: boolean;
  /** Words of the latest user message: they rank the branches of a group when it opens. */
  readonly words: readonly string[];
  /** The round the advertised tools last changed. */
  readonly changedAt: number;
  /** Tools called by name while not advertised whose groups wait for the next change of the view (`deferCalledGroups`). */
  readonly pending: readonly string[];
}

/** The tool calls and user text of one round (the nodes a commit adds), as the view reads them. */
export interface ToolRound {
  /** Text of the newest user message of the round, if it has one. */
  readonly userText?: string;
  /** Every tool call of the round, in order: its name and arguments. */
  readonly calls: readonly { readonly name: string; readonly input?: unknown }[];
}

interface Open {
  readonly kind: 'group' | 'search';
  readonly id: string;
  /** Tools that must be among the shown branches (called by name), most important first. */
  readonly force: readonly string[];
  /** Of those, the ones the model called. */
  readonly called: readonly string[];
}

/** Tool paths advertised by a view, in order, without repeats (`open_tools` not included). */
export function advertisedPaths(view: Pick<ToolView, 'entries'>): string[] {
  const out = new Set<string>();
  for (const e of view.entries) for (const t of e.tools) out.add(t);
  return [...out];
}

function entryFor(catalogue: ToolCatalogue, open: Open, words: readonly string[], round: number, o: ResolvedToolViewOptions): ToolViewEntry {
  if (open.kind === 'search') {
    const all = catalogue.search(open.id.split(' '), Number.MAX_SAFE_INTEGER);
    return { kind: 'search', id: open.id, tools: all.slice(0, o.maxBranches), groups: [], hidden: Math.max(0, all.length - o.maxBranches), usedAt: round, closing: false, called: [] };
  }
  const b = catalogue.branches(open.id, words, o.maxBranches);
  const total = b.tools.length + b.groups.length + b.hidden;
  const forced = open.force.slice(0, o.maxBranches);
  // the called tools must be advertised: they take the places of the last branches shown
  let groups = b.groups;
  let tools = b.tools.filter((t) => !forced.includes(t));
  while (tools.length + groups.length + forced.length > o.maxBranches) {
    if (groups.length > 0) groups = groups.slice(0, -1);
    else tools = tools.slice(0, -1);
  }
  tools = [...tools, ...forced].sort();
  const called = open.called.filter((t) => tools.includes(t));
  return { kind: 'group', id: open.id, tools, groups, hidden: total - tools.length - groups.length, usedAt: round, closing: false, called };
}

/** Entries still valid for `catalogue` (a changed catalogue drops removed groups and tools). */
function stillValid(catalogue: ToolCatalogue, entries: readonly ToolViewEntry[]): ToolViewEntry[] {
  const out: ToolViewEntry[] = [];
  for (const e of entries) {
    if (e.kind === 'group' && catalogue.group(e.id) === undefined) continue;
    const tools = e.tools.filter((t) => catalogue.byPath(t) !== undefined);
    const groups = e.groups.filter((g) => catalogue.group(g) !== undefined);
    out.push(tools.length === e.tools.length && groups.length === e.groups.length ? e : { ...e, tools, groups });
  }
  return out;
}

/**
 * The view of the next commit: the previous view (none for the first) changed by one round of the conversation.
 * Pure and deterministic. In order: `open_tools` calls open, close or search; a call to a catalogue tool that is not
 * advertised opens its group with that tool in it (the call already ran: see `resolveToolCall`) — with
 * `deferCalledGroups`, at the next change of the view; a new user message
 * opens up front the group of the tool its words match best (`autoOpen`); after `searchAfterRounds` navigation rounds
 * without a useful call the catalogue is searched with the request's words. Opened groups are appended after those
 * already open (the advertised order stays a stable prefix); past `maxOpenGroups` the least recently used closes.
 * Closes wait for the next change when `deferClose`. The view only changes here, once per commit.
 *
 * @param catalogue - the session's catalogue
 * @param prev - the parent commit's view, or undefined
 * @param round - the round's user text and tool calls
 * @param options - resolved {@link ToolViewOptions}
 * @returns the new view
 * @example
 * ```ts
 * const view = nextToolView(catalogue, undefined, { userText: 'scan the ports of host 10.0.0.1', calls: [] }, resolveToolViewOptions());
 * advertisedPaths(view); // ['security/scan/port_scan', …]
 * ```
 */
export function nextToolView(catalogue: ToolCatalogue, prev: ToolView | undefined, round: ToolRound, options: ResolvedToolViewOptions): ToolView {
  const r = (prev?.round ?? 0) + 1;
  const before = prev?.entries ?? [];
  let entries = stillValid(catalogue, before);
  let mustChange = entries.length !== before.length || entries.some((e, i) => e !== before[i]); // the catalogue changed
  const words = round.userText === undefined ? (prev?.words ?? []) : wordsOf(round.userText);
  let navRounds = prev?.navRounds ?? 0;
  let offered = prev?.offered ?? false;
  const advertised = new Set(advertisedPaths({ entries }));
  const opens: Open[] = [];
  const closes: string[] = [];
  const navWords: string[] = [];
  const called: string[] = (prev?.pending ?? []).filter((p) => catalogue.byPath(p) !== undefined);
  for (const p of called) advertised.add(p);
  let useful = false;
  let nav = false;
  for (const call of round.calls) {
    if (call.name === OPEN_TOOLS) {
      nav = true;
      const req = parseOpenTools(call.input);
      if (typeof req === 'string') continue;
      if (req.close !== undefined) closes.push(req.close);
      if (req.open !== undefined) {
        navWords.push(...wordsOf(req.open));
        if (catalogue.group(req.open) !== undefined) opens.push({ kind: 'group', id: req.open, force: [], called: [] });
      }
      if (req.search !== undefined) {
        const q = wordsOf(req.search);
        navWords.push(...q);
        if (q.length > 0) opens.push({ kind: 'search', id: q.join(' '), force: [], called: [] });
      }
      continue;
    }
    useful = true;
    const tool = catalogue.byName(call.name);
    if (tool === undefined) continue;
    if (advertised.has(tool.path)) {
      entries = entries.map((e) => (e.tools.includes(tool.path) ? { ...e, usedAt: r, closing: false } : e));
    } else {
      called.push(tool.path);
      advertised.add(tool.path);
    }
  }
  if (round.userText !== undefined || useful) {
    navRounds = 0;
    offered = false;
  } else if (nav) navRounds += 1;
  if (options.autoOpen && round.userText !== undefined && (prev === undefined || opens.length > 0)) {
    // up front on the first request; on a later one only with a change the round makes anyway (a change of the
    // tools re-bills everything after them)
    const groups = new Map<string, string>();
    for (const hit of catalogue.search(words, Number.MAX_SAFE_INTEGER)) {
      if (groups.size >= options.autoOpenGroups) break;
      if (!groups.has(parentGroup(hit))) groups.set(parentGroup(hit), hit);
    }
    for (const [group, best] of groups) if (!advertised.has(best)) opens.push({ kind: 'group', id: group, force: [best], called: [] });
  }
  if (navRounds >= options.searchAfterRounds && !offered) {
    const q = [...new Set([...words, ...navWords])];
    if (q.length > 0) opens.push({ kind: 'search', id: q.join(' '), force: [], called: [] });
    offered = true;
    mustChange = true;
  }
  const changing = opens.length > 0 || mustChange;
  let pending: string[] = [];
  if (changing || !options.deferCalledGroups) {
    opens.unshift(...called.map((p): Open => ({ kind: 'group', id: parentGroup(p), force: [p], called: [p] })));
  } else pending = [...new Set(called)];
  const closeNow = !options.deferClose || opens.length > 0 || mustChange;
  if (closes.length > 0) {
    const shut = new Set(closes);
    const match = (e: ToolViewEntry): boolean => shut.has(e.id) || (e.kind === 'search' && shut.has('search'));
    entries = closeNow ? entries.filter((e) => !match(e)) : entries.map((e) => (match(e) ? { ...e, closing: true } : e));
  }
  if (closeNow) entries = entries.filter((e) => !e.closing);
  const merged: Open[] = [];
  for (const open of opens) {
    const same = merged.findIndex((m) => m.kind === open.kind && m.id === open.id);
    const m = merged[same];
    if (m === undefined) merged.push(open);
    else merged[same] = { ...m, force: [...new Set([...m.force, ...open.force])], called: [...new Set([...m.called, ...open.called])] };
  }
  for (const open of merged) {
    const at = entries.findIndex((e) => e.kind === open.kind && e.id === open.id);
    const current = entries[at];
    if (current !== undefined && open.force.every((f) => current.tools.includes(f))) {
      entries[at] = { ...current, usedAt: r, closing: false };
      continue;
    }
    // a group shown again keeps the tools it showed: the newly called ones, then the ones called before, then the rest
    const again: Open =
      current === undefined
        ? open
        : { ...open, force: [...new Set([...open.force, ...current.called, ...current.tools])], called: [...new Set([...open.called, ...current.called])] };
    const entry = entryFor(catalogue, again, words, r, options);
    if (open.kind === 'search') entries = entries.filter((e) => e.kind !== 'search');
    const place = entries.findIndex((e) => e.kind === open.kind && e.id === open.id);
    if (place >= 0) entries[place] = entry;
    else entries.push(entry);
  }
  for (;;) {
    const groups = entries.filter((e) => e.kind === 'group');
    if (groups.length <= options.maxOpenGroups) break;
    let lru = groups[0] as ToolViewEntry;
    for (const g of groups) if (g.usedAt < lru.usedAt) lru = g;
    entries = entries.filter((e) => e !== lru);
  }
  const next: ToolView = { round: r, entries, navRounds, offered, words, changedAt: prev?.changedAt ?? r, pending };
  const changed = prev === undefined || sameAdvertised(catalogue, prev, next, options) === false;
  return changed ? { ...next, changedAt: r } : next;
}

function sameAdvertised(catalogue: ToolCatalogue, a: ToolView, b: ToolView, o: ResolvedToolViewOptions): boolean {
  const pa = advertisedPaths(a);
  const pb = advertisedPaths(b);
  return pa.length === pb.length && pa.every((p, i) => p === pb[i]) && openToolsDescription(catalogue, a, o) === openToolsDescription(catalogue, b, o);
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function listing(catalogue: ToolCatalogue, tools: readonly string[], groups: readonly string[], hidden: number): string {
  const parts = [...groups.map((g) => `${g}/ (${plural(catalogue.group(g)?.total ?? 0, 'tool')})`), ...tools.map(toolName)];
  return `${parts.join(', ')}${hidden > 0 ? `, +${hidden} more (search to find them)` : ''}`;
}

/**
 * The description of `open_tools` for a view: what the catalogue holds, its top level (at most `maxBranches`
 * branches, the largest first, independent of the request so that it stays stable), the sub-groups of each open group,
 * the search shown, and the automatic search offer.
 */
export function openToolsDescription(catalogue: ToolCatalogue, view: ToolView, o: ResolvedToolViewOptions): string {
  const top = catalogue.branches('', [], o.maxBranches);
  const lines = [
    `Browse the tool catalogue (${plural(catalogue.tools.length, 'tool')} in ${plural(catalogue.groupCount, 'group')}); only some tools are advertised at a time. ` +
      'Call with {"open": "<group>"} to advertise a group\'s tools from your next call, {"close": "<group>"} when you no longer need them, ' +
      'or {"search": "<words>"} to find tools by name or description. A tool you know by name can be called directly even when it is not advertised.',
    `Top level: ${listing(catalogue, top.tools, top.groups, top.hidden)}.`,
  ];
  for (const e of view.entries) {
    if (e.kind === 'group' && (e.groups.length > 0 || e.hidden > 0)) lines.push(`Open ${e.id === '' ? '(top level)' : `${e.id}/`}: sub-groups ${listing(catalogue, [], e.groups, e.hidden)}.`);
    if (e.kind === 'search') lines.push(`Search "${e.id}": ${plural(e.tools.length, 'tool')} advertised${e.hidden > 0 ? `, ${e.hidden} more match` : ''}.`);
  }
  if (view.offered) lines.push('Several navigation calls found no tool to use: the catalogue was searched with the words of the request; search again with other words if nothing fits.');
  return lines.join('\n');
}

/** The `open_tools` definition of a view. */
export function openToolsTool(catalogue: ToolCatalogue, view: ToolView, o: ResolvedToolViewOptions): AdvertisedTool {
  return {
    name: OPEN_TOOLS,
    description: openToolsDescription(catalogue, view, o),
    parameters: {
      type: 'object',
      properties: {
        open: { type: 'string', description: 'Path of a group to open, e.g. "security/scan".' },
        close: { type: 'string', description: 'Path of an open group to close, or "search" to drop the search results.' },
        search: { type: 'string', description: 'Words to search tool names and descriptions for.' },
      },
    },
  };
}

/**
 * What a view advertises, in request order: the tools of each entry (groups in the order they were opened, then the
 * search), then `open_tools` last, so that a change of the view leaves the longest possible prefix of the tools.
 *
 * @param catalogue - the catalogue of the view
 * @param view - the view
 * @param options - resolved {@link ToolViewOptions}
 * @returns the tool definitions
 * @example
 * ```ts
 * const tools = advertisedTools(catalogue, view, resolveToolViewOptions());
 * tools.at(-1)?.name; // 'open_tools'
 * ```
 */
export function advertisedTools(catalogue: ToolCatalogue, view: ToolView, options: ResolvedToolViewOptions): AdvertisedTool[] {
  const out: AdvertisedTool[] = [];
  for (const p of advertisedPaths(view)) {
    const t = catalogue.advertised(p);
    if (t !== undefined) out.push(t);
  }
  out.push(openToolsTool(catalogue, view, options));
  return out;
}
