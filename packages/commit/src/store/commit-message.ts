import type { ItemState } from '@ctxgit/rules';
import type { StateCounts } from './layout/state-counts.js';
import type { CommitSummary } from './context-commit.js';

/** What goes into the message of one ContextCommit. */
export interface CommitMessageInput {
  readonly session: string;
  readonly turn: number;
  readonly headNodeId: string;
  readonly rulesVersion: string;
  readonly model: string;
  readonly window: number;
  readonly totalTokens: number;
  /** Items per state, and in all. */
  readonly counts: StateCounts;
  /** Live items (the counts add the folded ones, `summarized`). */
  readonly itemCount: number;
  readonly summary: CommitSummary;
  /** Sessions merged by this commit, with their terminal commits. */
  readonly merged: readonly { readonly session: string; readonly commit: string }[];
  /** Further body lines (pins applied, summarizer fallbacks). @defaultValue none */
  readonly notes?: readonly string[];
}

const STATES: readonly ItemState[] = ['full', 'aged', 'cleared', 'summarized', 'summary'];

/** The readable message of a ContextCommit: a subject line, a body, and the trailers `Head-Node`, `Rules-Version`, `Total-Tokens`. */
export function commitMessage(m: CommitMessageInput): string {
  const s = m.summary;
  const share = m.window > 0 ? ((100 * m.totalTokens) / m.window).toFixed(2) : '0.00';
  const subject =
    `${m.session} turn ${m.turn}: +${s.added} ${plural(s.added, 'item')}, ${s.aged} aged, ${s.cleared} cleared, ${s.folded} folded; ` +
    `${m.totalTokens} tokens (${share}% of ${m.window})`;
  const body = [
    `${m.itemCount + m.counts.summarized} ${plural(m.itemCount + m.counts.summarized, 'item')}: ${STATES.map((st) => `${m.counts[st]} ${st}`).join(', ')}.`,
    `Unchanged prefix: ${s.firstChangedIndex} of ${m.itemCount} live items are as in the parent commit.`,
    `Model: ${m.model}, window ${m.window} tokens.`,
  ];
  if (m.merged.length > 0) body.push(`Merges: ${m.merged.map((p) => `${p.session} at ${p.commit.slice(0, 12)}`).join(', ')}.`);
  for (const note of m.notes ?? []) body.push(oneLine(note));
  const trailers = [`Head-Node: ${m.headNodeId}`, `Rules-Version: ${oneLine(m.rulesVersion)}`, `Total-Tokens: ${m.totalTokens}`];
  return `${subject}\n\n${body.join('\n')}\n\n${trailers.join('\n')}\n`;
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
