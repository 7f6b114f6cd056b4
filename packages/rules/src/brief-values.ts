import { distinctiveTokens } from './distinctive-tokens.js';
import type { ContextItem } from './item.js';

const encoder = new TextEncoder();
/** A run that may be a value a later call passes on: letters, digits and identifier punctuation. */
const RUN = /[A-Za-z0-9][A-Za-z0-9_.\/:@#-]*[A-Za-z0-9]/g;
const DIGIT = /[0-9]/;
const LETTER = /[A-Za-z]/;

interface Candidate {
  readonly label: string;
  readonly value: string;
  readonly score: number;
  /** Newest result first, then order inside it. */
  readonly rank: number;
}

/** Keys of the JSON arguments of the calls in the span: a result field of the same name is a value a call takes. */
function argumentKeys(items: readonly ContextItem[]): Set<string> {
  const keys = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        keys.add(k.toLowerCase());
        walk(x);
      }
    }
  };
  for (const it of items) for (const b of it.blocks) if (b.type === 'tool_call') walk(parse(b.arguments));
  return keys;
}

function parse(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether a string looks like an identifier or a quantity a call would take, not prose. */
function valueLike(s: string): boolean {
  return s.length >= 2 && s.length <= 64 && s.split(/\s+/).length <= 3;
}

/** A `VALUES:` line (an aged result's stub, a brief). */
const VALUES_LINE = /^VALUES: (.*)$/m;

/** A code: letters with digits (`credit_card_4421486`, `NO6JO3`, `src/a1.ts`). */
const coded = (s: string): boolean => LETTER.test(s) && DIGIT.test(s);

/** Identifier-shaped: letters with digits, or joined by `_ - / . :` (a path, a key, a code). */
const idShaped = (s: string): boolean => (LETTER.test(s) && DIGIT.test(s)) || /[A-Za-z][_\/.:-][A-Za-z0-9]/.test(s);

/**
 * The distinctive values of the tool results in `originals`, ranked by how likely a later call is to reuse them, on
 * one line `VALUES: key=value, …` of at most `allowance` bytes (UTF-8), or `''` when none fits. From a JSON result,
 * every scalar field short enough to be a value (up to three words, 64 characters); from other text, the
 * identifier-shaped runs; from an aged result's stub or a nested summary's brief, the values its `VALUES:` line kept.
 * Ranked by: the field is named like an argument of a call in the span (a later call
 * passes it: `user_id`, `path`), the value is identifier-shaped (letters with digits, or joined by `_ - / . :`), a
 * step already reused it, then newest result first.
 *
 * @param originals - The folded items, in list order.
 * @param allowance - Byte allowance of the line.
 * @returns The line, or `''`.
 * @example
 * ```ts
 * briefValues([lookupItem], 200); // 'VALUES: user_id=mia_li_3668, payment_id=credit_card_4421486, …'
 * ```
 */
export function briefValues(originals: readonly ContextItem[], allowance: number): string {
  const args = argumentKeys(originals);
  const stepWords: string[] = [];
  for (const it of originals) for (const b of it.blocks) if (it.role === 'assistant' && b.type === 'text') stepWords.push(b.text);
  for (const it of originals) for (const b of it.blocks) if (b.type === 'tool_call') stepWords.push(b.arguments);
  const reused = distinctiveTokens(stepWords.join('\n'));
  const out: Candidate[] = [];
  let rank = 0;
  const add = (label: string, value: string, named: boolean, field = false, kept = false): void => {
    const score = (named ? 4 : 0) + (kept ? 4 : 0) + (field ? 2 : 0) + (idShaped(value) ? 2 : 0) + (reused.has(value.toLowerCase()) ? 1 : 0);
    out.push({ label, value, score, rank: rank++ });
  };
  // the values a `VALUES:` line in `text` kept (an aged result's stub, a nested summary's brief): ranked as kept, in their order
  const addKept = (text: string): void => {
    for (const part of VALUES_LINE.exec(text)?.[1]?.split(', ') ?? []) add('', part, false, false, true);
  };
  for (let i = originals.length - 1; i >= 0; i--) {
    const it = originals[i] as ContextItem;
    if (it.folded !== undefined) {
      for (const b of it.blocks) if (b.type === 'text') addKept(b.text);
      continue;
    }
    if (it.role !== 'tool') continue;
    for (const b of it.blocks) {
      if (b.type !== 'tool_result') continue;
      const json = parse(b.output);
      if (json !== undefined) {
        const walk = (v: unknown, key: string): void => {
          if (Array.isArray(v)) v.forEach((x) => walk(x, key));
          else if (typeof v === 'object' && v !== null) {
            for (const [k, x] of Object.entries(v)) {
              // a key that is itself a code (`credit_card_4421486`) is a value of its container (`payment_methods`)
              if (coded(k) && /[0-9]{3}/.test(k) && valueLike(k)) add(key, k, args.has(key.toLowerCase()));
              walk(x, coded(k) ? key : k);
            }
          }
          else if (typeof v === 'string' && valueLike(v.trim())) add(key, v.trim(), args.has(key.toLowerCase()));
          // a quantity under a structured field name (`total_baggages`) is what an update call passes back
          else if (typeof v === 'number' && key !== '') add(key, String(v), args.has(key.toLowerCase()), key.includes('_'));
        };
        walk(json, '');
        continue;
      }
      addKept(b.output);
      for (const m of b.output.matchAll(RUN)) if (m[0].length >= 5 && m[0].length <= 64 && idShaped(m[0])) add('', m[0], false);
    }
  }
  out.sort((a, b) => b.score - a.score || a.rank - b.rank);
  const head = 'VALUES: ';
  let used = encoder.encode(head).length;
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const c of out) {
    const v = c.value.replace(/[\n,]/g, ' ');
    const part = c.label === '' ? v : `${c.label}=${v}`;
    // a value says it once, unless a field names it (`total_baggages=0` next to `nonfree_baggages=0`)
    const id = c.label === '' || idShaped(v) ? v : part;
    if (seen.has(id)) continue;
    const cost = encoder.encode(part).length + (parts.length > 0 ? 2 : 0);
    if (used + cost > allowance) continue;
    seen.add(id);
    used += cost;
    parts.push(part);
  }
  return parts.length === 0 ? '' : head + parts.join(', ');
}
