import type { JSX } from 'preact';

/**
 * Characters shown as a visible `U+XXXX` tag instead of acting: bidi embeddings, overrides, isolates and marks (which
 * could make a transcript read differently from what it holds), zero-width characters, and C0/C1 controls other than
 * tab and newline.
 */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * Transcript text, always as text nodes: never parsed as HTML, never a link. Invisible or direction-changing
 * characters become visible tags.
 */
export function Text({ value, class: cls }: { readonly value: string; readonly class?: string }): JSX.Element {
  const parts: (string | JSX.Element)[] = [];
  let last = 0;
  for (const m of value.matchAll(HIDDEN)) {
    const at = m.index;
    if (at > last) parts.push(value.slice(last, at));
    const code = (m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    parts.push(<span class="ctl" title="invisible or direction-changing character, shown as its code">{`U+${code}`}</span>);
    last = at + m[0].length;
  }
  if (last < value.length) parts.push(value.slice(last));
  return <span class={cls === undefined ? 'text' : `text ${cls}`} dir="ltr">{parts}</span>;
}

/** The same text as a plain string, hidden characters as `⟦U+XXXX⟧` (for SVG labels). */
export function visible(value: string): string {
  return value.replace(HIDDEN, (c) => `⟦U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟧`);
}
