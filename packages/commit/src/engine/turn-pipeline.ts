import type { NodeStore } from '@ctxgit/dag';
import type { ContextItem, PipelineInput, PipelineResult } from '@ctxgit/rules';
import { RulesFoldedNeededError, runPipelineAsync } from '@ctxgit/rules';
import { applyPins } from './pins/apply-pins.js';
import type { PinRecord } from './pins/pin-record.js';
import { pinCapTokens } from './pins/pinned-mass.js';
import type { SessionSettings } from './session-settings.js';
import { requestFrame } from './session-request.js';
import { GuardedSummarizer } from './summarizer/guarded-summarizer.js';

/** A turn's pipeline result, and the lines the commit message adds about pins and the summarizer. */
export interface TurnResult {
  readonly result: PipelineResult;
  readonly notes: readonly string[];
}

/**
 * Runs the session's rules for one commit: the turn's pin records applied to the parent items and the new inputs
 * first, then the pipeline on the parent's live list, with the session's summarizer (guarded: the brief stays when it
 * fails) when it has one. `held` gives what a parent summary folded when the session holds it; `loadFolded` reads
 * it into the map (false: no such summary).
 */
export async function runTurnPipeline(
  store: NodeStore,
  parentItems: readonly ContextItem[],
  inputs: readonly PipelineInput[],
  pins: readonly PinRecord[],
  s: SessionSettings,
  now: number,
  loadFolded: (summaryKey: string, into: Map<string, readonly ContextItem[]>) => Promise<boolean>,
  held: (summaryKey: string) => readonly ContextItem[] | undefined,
): Promise<TurnResult> {
  const tokenizer = await s.loadTokenizer();
  const pinned = applyPins(parentItems, inputs, pins, pinCapTokens(s.historyBudget, s.maxPinnedShare), tokenizer);
  const summarizer = s.summarizer === undefined ? undefined : new GuardedSummarizer(s.summarizer, (id) => store.getNode(id));
  // The live list is the input; a fold that absorbs a summary of it needs what that summary folded: held by the session,
  // or else read then, and run again.
  const folded = new Map<string, readonly ContextItem[]>();
  const context = {
    now,
    tokenizer,
    historyBudget: s.historyBudget,
    ...(s.request === undefined ? {} : { request: requestFrame(s.request, s.window, s.outputReserve, tokenizer) }),
    rules: s.rules,
    foldedOf: (key: string) => folded.get(key) ?? held(key),
    cache: s.rulesCache,
    ...(s.band === undefined ? {} : { band: s.band }),
    ...(summarizer === undefined ? {} : { summarizer }),
  };
  let run: PipelineResult | undefined;
  while (run === undefined) {
    try {
      run = await runPipelineAsync(pinned.parent, pinned.inputs, context);
    } catch (err) {
      // every summary the fold's walk found missing is read before the next run (not one run per summary)
      const keys = err instanceof RulesFoldedNeededError ? (err.data['summaries'] as readonly string[]).filter((k) => !folded.has(k)) : [];
      if (keys.length === 0) throw err;
      for (const key of keys) if (!(await loadFolded(key, folded))) throw err;
    }
  }
  // Positions are relative to the list the pipeline got: when pins changed parent items, the caller diffs against its own.
  const { changedPositions, ...rest } = run;
  const result: PipelineResult = pinned.parent === parentItems && changedPositions !== undefined ? { ...rest, changedPositions } : rest;
  const notes = pinned.notes.map((n) => `Pins: ${n}.`);
  if (summarizer !== undefined && run.report.summaries > 0) {
    const fallbacks = summarizer.fallbacks(run.items);
    const before = new Set(parentItems.map((it) => it.key));
    const written = run.items.filter((it) => it.state === 'summary' && !before.has(it.key) && it.reason === `summarizer:${summarizer.name}`).length;
    notes.push(`Summarizer ${summarizer.name}: wrote ${written} of ${run.report.summaries} new summaries.`);
    for (const f of fallbacks) notes.push(`Summarizer fallback: ${f.key} kept the deterministic brief (${f.reason}: ${f.detail}).`);
  }
  return { result, notes };
}
