import type { ExpandedSummary } from '../expanded-summary.js';

/** Where one original sits in a transcript: characters `[start, end)`, its content (after the header line) from `body`. */
export interface TranscriptPart {
  readonly key: string;
  readonly start: number;
  readonly body: number;
  readonly end: number;
}

/** The originals of a summary as one text that `fold_peek` pages through and `fold_search` points into. */
export interface FoldTranscript {
  readonly text: string;
  readonly parts: readonly TranscriptPart[];
}

/**
 * Each original as a header line (`--- original i/n key=… role=… [tool=…] oid=… ---`), its arguments for a tool call
 * (`input: <JSON>`), then its exact text and a blank line. Deterministic: the same summary gives the same offsets.
 */
export function foldTranscript(expanded: ExpandedSummary): FoldTranscript {
  const chunks: string[] = [];
  const parts: TranscriptPart[] = [];
  let at = 0;
  const n = expanded.originals.length;
  expanded.originals.forEach((o, i) => {
    const node = o.node;
    const tool = node.name === undefined ? '' : ` ${node.role === 'tool' ? 'tool' : 'name'}=${node.name}`;
    const head = `--- original ${i + 1}/${n} key=${o.key} role=${node.role}${tool} oid=${o.oid} ---\n`;
    const input = node.input === undefined ? '' : `input: ${JSON.stringify(node.input)}\n`;
    const chunk = `${head}${input}${node.output}\n\n`;
    parts.push({ key: o.key, start: at, body: at + head.length, end: at + chunk.length });
    chunks.push(chunk);
    at += chunk.length;
  });
  return { text: chunks.join(''), parts };
}
