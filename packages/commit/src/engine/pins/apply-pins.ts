import type { ContextItem, PipelineInput } from '@ctxgit/rules';
import { itemFromNode } from '@ctxgit/rules';
import type { Tokenizer } from '@ctxgit/tokenize';
import type { PinRecord } from './pin-record.js';
import { pinnedTokens } from './pinned-mass.js';

/** The lists a turn's pipeline runs on once its pin records are applied, and what the commit message says of them. */
export interface PinnedTurn {
  /** The parent items; the same array when no parent item changed. */
  readonly parent: readonly ContextItem[];
  readonly inputs: readonly PipelineInput[];
  /** One line per record. */
  readonly notes: readonly string[];
}

const isItem = (x: PipelineInput): x is ContextItem => 'blocks' in x && 'key' in x;

function withPin(it: ContextItem, pinned: boolean): ContextItem {
  if (pinned) return { ...it, pinned: true };
  const { pinned: _dropped, ...rest } = it;
  return rest;
}

/**
 * Applies pin records, in order, to the parent items and the new inputs: a pin marks a `full` item `pinned` (the
 * rules then keep it full), an unpin removes the mark. A new node with `metadata.pinned: true` counts as a pin of
 * itself, applied first. A pin that would take the pinned items over `capTokens` is
 * not applied (only possible when the cap was lowered or two writers pinned at once: `Session.pin` refuses it), nor
 * one whose item is gone or no longer full; the notes say so.
 */
export function applyPins(parentItems: readonly ContextItem[], inputs: readonly PipelineInput[], explicit: readonly PinRecord[], capTokens: number, tokenizer: Tokenizer): PinnedTurn {
  // A new node with `metadata.pinned: true` is a pin of itself, made before the records and held to the same cap.
  const implicit: PinRecord[] = [];
  const next = inputs.map((x): PipelineInput => {
    if (isItem(x) || x.metadata?.['pinned'] !== true) return x;
    implicit.push({ node: x.id, key: x.id, pinned: true });
    return withPin(itemFromNode(x, tokenizer), false);
  });
  const records = [...implicit, ...explicit];
  if (records.length === 0) return { parent: parentItems, inputs, notes: [] };
  const wanted = new Set(records.map((r) => r.key));
  let parent: ContextItem[] | undefined;
  const where = new Map<string, { list: 'parent' | 'inputs'; at: number }>();
  parentItems.forEach((it, at) => {
    if (wanted.has(it.key)) where.set(it.key, { list: 'parent', at });
  });
  next.forEach((x, at) => {
    const key = isItem(x) ? x.key : x.id;
    if (wanted.has(key)) where.set(key, { list: 'inputs', at });
  });
  const read = (w: { list: 'parent' | 'inputs'; at: number }): ContextItem => {
    if (w.list === 'parent') return (parent ?? parentItems)[w.at] as ContextItem;
    const x = next[w.at] as PipelineInput;
    return isItem(x) ? x : itemFromNode(x, tokenizer);
  };
  const write = (w: { list: 'parent' | 'inputs'; at: number }, it: ContextItem): void => {
    if (w.list === 'inputs') next[w.at] = it;
    else (parent ??= [...parentItems])[w.at] = it;
  };
  let mass = pinnedTokens(parentItems) + pinnedTokens(next.filter(isItem));
  const notes: string[] = [];
  for (const r of records) {
    const verb = r.pinned ? 'pin' : 'unpin';
    const w = where.get(r.key);
    if (w === undefined) {
      notes.push(`${verb} ${r.key} (record ${r.node}) not applied: no such item in the context`);
      continue;
    }
    const it = read(w);
    if ((it.pinned === true) === r.pinned) {
      notes.push(`${verb} ${r.key}: already ${r.pinned ? 'pinned' : 'unpinned'}`);
      continue;
    }
    if (!r.pinned) {
      write(w, withPin(it, false));
      mass -= it.tokens;
      notes.push(`unpinned ${r.key} (${it.tokens} tokens); pinned items hold ${mass} of ${capTokens} tokens allowed`);
      continue;
    }
    if (it.state !== 'full') {
      notes.push(`pin ${r.key} (record ${r.node}) not applied: the item is ${it.state}, a pin keeps a full item full`);
      continue;
    }
    if (mass + it.tokens > capTokens) {
      notes.push(`pin ${r.key} (record ${r.node}) not applied: ${it.tokens} tokens over the cap (${mass} of ${capTokens} tokens pinned)`);
      continue;
    }
    write(w, withPin(it, true));
    mass += it.tokens;
    notes.push(`pinned ${r.key} (${it.tokens} tokens); pinned items hold ${mass} of ${capTokens} tokens allowed`);
  }
  return { parent: parent ?? parentItems, inputs: next, notes };
}
