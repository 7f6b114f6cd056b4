import { argumentText } from './argument-text.js';
import { remembered } from './block-memo.js';
import { isCommonWord } from './distinctive-tokens.js';
import type { Block, ContextItem } from './item.js';
import type { RulesCache } from './rules-cache.js';

/** A run of letters, digits and identifier punctuation, as a later step would write a name, a path or a word. */
const RUN = /[A-Za-z0-9_./:-]{5,}/g;
const LETTER = /[A-Za-z]/;

/** `.`, `/`, `:` or `-`: trimmed off a run's end. */
const trailing = (c: number): boolean => c === 0x2e || c === 0x2f || c === 0x3a || c === 0x2d;

/**
 * The words of `text` (runs of 5 to 64 characters with a letter), trimmed of edge punctuation (`.`, `/`, `:`, `-` at
 * the end, then `:`, `-` at the start), in order. A run shorter than 5 is never matched: trimming only shortens it.
 */
export function runs(text: string): string[] {
  const out: string[] = [];
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) {
    const run = m[0];
    let end = run.length;
    while (end > 0 && trailing(run.charCodeAt(end - 1))) end--;
    let start = 0;
    while (start < end && (run.charCodeAt(start) === 0x3a || run.charCodeAt(start) === 0x2d)) start++;
    if (end - start < 5 || end - start > 64) continue;
    const word = start === 0 && end === run.length ? run : run.slice(start, end);
    if (LETTER.test(word)) out.push(word);
  }
  return out;
}

const wordsOf = (text: string): Set<string> => new Set(runs(text).map((w) => w.toLowerCase()));

/** A word as a block first spells it, and its key (lower case). */
interface Said {
  readonly word: string;
  readonly key: string;
}

/** The words of each block, remembered per block (a block never changes). */
function newBlockWords(): WeakMap<Block, readonly Said[]> {
  return new WeakMap();
}

/** The words a block wrote (a text's, a call's arguments'), each once in its first spelling, common words left out. */
function blockWords(b: Block): Said[] {
  const text = b.type === 'text' ? b.text : b.type === 'tool_call' ? argumentText(b.arguments, true) : '';
  const out: Said[] = [];
  const seen = new Set<string>();
  for (const word of runs(text)) {
    const key = word.toLowerCase();
    if (seen.has(key) || isCommonWord(key)) continue;
    seen.add(key);
    out.push({ word, key });
  }
  return out;
}

/** A word the steps of a span wrote, with the number of steps that wrote it. */
interface SaidWord extends Said {
  readonly steps: number;
}

/** Whether `b` of `it` is what a step wrote: the agent's text, a call, a nested summary's brief (what it kept of its steps). */
const said = (it: ContextItem, b: Block): boolean => (b.type === 'text' && (it.role === 'assistant' || it.folded !== undefined)) || (b.type === 'tool_call' && it.folded === undefined);

/** Works out now the words {@link rankSaid} reads of each block of `items` (kept in `cache`, as a brief would keep them). */
export function readSaidAhead(items: readonly ContextItem[], cache: RulesCache): void {
  const memo = cache.part(newBlockWords);
  for (const it of items) for (const b of it.blocks) if (said(it, b)) remembered(memo, b, blockWords);
}

/**
 * The distinctive words the steps of a span wrote themselves — the agent's text and the arguments of its calls —
 * ranked for the brief's `SAID:` line ({@link saidLine} writes it). An agent names again what it named before (the
 * file it was editing, the function, the approach, the term it used for a finding), so what a folded step wrote is
 * what a later step is most likely to write again. Words of 5 to 64 characters with a letter, common English words
 * left out, each once in its first spelling; ranked by how many steps of the span wrote it, then newest step first.
 * A nested summary counts as a step that wrote the words of its brief.
 *
 * @param originals - The folded items, in list order.
 * @param cache - Where the words of each block are remembered (a session's {@link RulesCache}). Default: none.
 * @returns The words, best first.
 */
export function rankSaid(originals: readonly ContextItem[], cache?: RulesCache): readonly SaidWord[] {
  const memo = cache?.part(newBlockWords);
  const words = new Map<string, { readonly word: string; readonly key: string; steps: number }>();
  for (let i = originals.length - 1; i >= 0; i--) {
    const it = originals[i] as ContextItem;
    const here = new Set<string>();
    for (const b of it.blocks) {
      if (!said(it, b)) continue;
      for (const { word, key } of remembered(memo, b, blockWords)) {
        if (here.has(key)) continue;
        here.add(key);
        const seen = words.get(key);
        if (seen === undefined) words.set(key, { word, key, steps: 1 });
        else seen.steps++;
      }
    }
  }
  // Map order is first-seen order (newest step first): a stable sort keeps it among equals.
  return [...words.values()].sort((a, b) => b.steps - a.steps);
}

/**
 * The line `SAID: w1 w2 …` of {@link rankSaid}'s words, best first, within `allowance` bytes (UTF-8), leaving out the
 * words that `written` (the brief's other lines) spells; `''` when none fits.
 */
export function saidLine(ranked: readonly SaidWord[], allowance: number, written: string): string {
  const already = wordsOf(written);
  const head = 'SAID:';
  let used = Buffer.byteLength(head, 'utf8');
  const parts: string[] = [];
  for (const w of ranked) {
    // a word takes at least a byte per UTF-16 unit: one that cannot fit is passed over before it is encoded
    if (used + w.word.length + 1 > allowance || already.has(w.key)) continue;
    const cost = Buffer.byteLength(w.word, 'utf8') + 1;
    if (used + cost > allowance) continue;
    used += cost;
    parts.push(w.word);
  }
  return parts.length === 0 ? '' : `${head} ${parts.join(' ')}`;
}
