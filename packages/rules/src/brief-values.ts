import { remembered } from './block-memo.js';
import { distinctiveTokens } from './distinctive-tokens.js';
import { idShaped } from './id-shaped.js';
import type { Block, ContextItem } from './item.js';
import type { RulesCache } from './rules-cache.js';

/** A run that may be a value a later call passes on: letters, digits and identifier punctuation. */
const RUN = /[A-Za-z0-9][A-Za-z0-9_.\/:@#-]*[A-Za-z0-9]/g;
const DIGIT = /[0-9]/;
const LETTER = /[A-Za-z]/;

/**
 * A value as a block offers it: `field` a JSON field's string (or a key that is itself a code), `quantity` a JSON
 * field's number, `kept` a value of a `VALUES:` line, `run` an identifier-shaped run of plain text; with what ranking
 * it takes that does not depend on the span.
 */
interface Offer {
  readonly label: string;
  readonly value: string;
  readonly kind: 'field' | 'quantity' | 'kept' | 'run';
  /** The label in lower case (matched against the calls' argument keys) and the value (against the steps' words). */
  readonly labelKey: string;
  readonly valueKey: string;
  /** Identifier-shaped: a value said once, whatever field names it. */
  readonly shaped: boolean;
  /** Score whatever the span: kept 4, a quantity under a structured name 2, identifier-shaped 2. */
  readonly base: number;
}

function offer(label: string, value: string, kind: Offer['kind']): Offer {
  const shaped = idShaped(value);
  const base = (kind === 'kept' ? 4 : 0) + (kind === 'quantity' && label.includes('_') ? 2 : 0) + (shaped ? 2 : 0);
  return { label, value, kind, labelKey: label.toLowerCase(), valueKey: value.toLowerCase(), shaped, base };
}

/** What a block offers the `VALUES:` line before a span ranks it: a call's argument keys and words, a result's values. */
interface BlockValues {
  readonly offers: WeakMap<Block, readonly Offer[]>;
  readonly keys: WeakMap<Block, readonly string[]>;
  readonly words: WeakMap<Block, ReadonlySet<string>>;
}

function newBlockValues(): BlockValues {
  return { offers: new WeakMap(), keys: new WeakMap(), words: new WeakMap() };
}

/** The keys (lower case) of a call's JSON arguments, nested ones included. */
function callKeys(b: Block): string[] {
  const keys: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        keys.push(k.toLowerCase());
        walk(x);
      }
    }
  };
  if (b.type === 'tool_call') walk(parse(b.arguments));
  return keys;
}

/** Keys of the JSON arguments of the calls in the span: a result field of the same name is a value a call takes. */
function argumentKeys(items: readonly ContextItem[], memo: BlockValues | undefined): Set<string> {
  const keys = new Set<string>();
  for (const it of items) for (const b of it.blocks) if (b.type === 'tool_call') for (const k of remembered(memo?.keys, b, callKeys)) keys.add(k);
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

/** The values of a `VALUES:` line in `text` (an aged result's stub, a nested summary's brief), in their order. */
function keptOffers(text: string): Offer[] {
  return (VALUES_LINE.exec(text)?.[1]?.split(', ') ?? []).map((value) => offer('', value, 'kept'));
}

/** What a block offers: a nested summary's text its kept values; a tool result its JSON fields, else its kept values and identifier-shaped runs. */
function blockOffers(b: Block): Offer[] {
  if (b.type === 'text') return keptOffers(b.text);
  if (b.type !== 'tool_result') return [];
  const json = parse(b.output);
  if (json === undefined) {
    const out = keptOffers(b.output);
    for (const m of b.output.matchAll(RUN)) if (m[0].length >= 5 && m[0].length <= 64 && idShaped(m[0])) out.push(offer('', m[0], 'run'));
    return out;
  }
  const out: Offer[] = [];
  const walk = (v: unknown, key: string): void => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        // a key that is itself a code (`credit_card_4421486`) is a value of its container (`payment_methods`)
        if (coded(k) && /[0-9]{3}/.test(k) && valueLike(k)) out.push(offer(key, k, 'field'));
        walk(x, coded(k) ? key : k);
      }
    } else if (typeof v === 'string' && valueLike(v.trim())) out.push(offer(key, v.trim(), 'field'));
    // a quantity under a structured field name (`total_baggages`) is what an update call passes back
    else if (typeof v === 'number' && key !== '') out.push(offer(key, String(v), 'quantity'));
  };
  walk(json, '');
  return out;
}

/** The words the steps of a block wrote (an assistant's text, a call's arguments). */
function blockWords(b: Block): ReadonlySet<string> {
  return distinctiveTokens(b.type === 'text' ? b.text : b.type === 'tool_call' ? b.arguments : '');
}

/** Whether `b` of `it` is what the steps wrote (the agent's text, a call): its words count as reused by later values. */
const wrote = (it: ContextItem, b: Block): boolean => (it.role === 'assistant' && b.type === 'text') || b.type === 'tool_call';

/** Whether `b` of `it` offers values: a nested summary's brief, a tool result's output. */
const offers = (it: ContextItem, b: Block): boolean => (it.folded !== undefined ? b.type === 'text' : it.role === 'tool' && b.type === 'tool_result');

/** Works out now what {@link rankValues} reads of each block of `items` (kept in `cache`, as a brief would keep it). */
export function readValuesAhead(items: readonly ContextItem[], cache: RulesCache): void {
  const memo = cache.part(newBlockValues);
  for (const it of items) {
    for (const b of it.blocks) {
      if (b.type === 'tool_call') remembered(memo.keys, b, callKeys);
      if (wrote(it, b)) remembered(memo.words, b, blockWords);
      if (offers(it, b)) remembered(memo.offers, b, blockOffers);
    }
  }
}

/**
 * The distinctive values of the tool results in `originals`, ranked by how likely a later call is to reuse them
 * (see {@link briefValues}), best first: what {@link valuesLine} writes at any allowance.
 */
export function rankValues(originals: readonly ContextItem[], cache?: RulesCache): readonly Offer[] {
  const memo = cache?.part(newBlockValues);
  const args = argumentKeys(originals, memo);
  const reused = new Set<string>();
  for (const it of originals) {
    for (const b of it.blocks) if (wrote(it, b)) for (const w of remembered(memo?.words, b, blockWords)) reused.add(w);
  }
  // By score, then newest result first and order inside it: a bucket per score, filled in that order.
  const buckets: Offer[][] = [];
  for (let i = originals.length - 1; i >= 0; i--) {
    const it = originals[i] as ContextItem;
    for (const b of it.blocks) {
      if (!offers(it, b)) continue;
      for (const o of remembered(memo?.offers, b, blockOffers)) {
        const named = (o.kind === 'field' || o.kind === 'quantity') && args.has(o.labelKey);
        const score = o.base + (named ? 4 : 0) + (reused.has(o.valueKey) ? 1 : 0);
        (buckets[score] ??= []).push(o);
      }
    }
  }
  return buckets.reverse().flatMap((b) => b ?? []);
}

/** The `VALUES:` line of ranked values within `allowance` bytes (UTF-8), or `''` when none fits. */
export function valuesLine(ranked: readonly Offer[], allowance: number): string {
  const head = 'VALUES: ';
  let used = Buffer.byteLength(head, 'utf8');
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const o of ranked) {
    const sep = parts.length > 0 ? 2 : 0;
    // a part takes at least a byte per UTF-16 unit: one that cannot fit is passed over before it is encoded
    if (used + sep + o.value.length + (o.label === '' ? 0 : o.label.length + 1) > allowance) continue;
    const v = o.value.replace(/[\n,]/g, ' ');
    const part = o.label === '' ? v : `${o.label}=${v}`;
    // a value says it once, unless a field names it (`total_baggages=0` next to `nonfree_baggages=0`)
    const id = o.label === '' || o.shaped ? v : part;
    if (seen.has(id)) continue;
    const cost = Buffer.byteLength(part, 'utf8') + sep;
    if (used + cost > allowance) continue;
    seen.add(id);
    used += cost;
    parts.push(part);
  }
  return parts.length === 0 ? '' : head + parts.join(', ');
}

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
 * @param cache - Where what each block offers is remembered (a session's {@link RulesCache}). Default: none.
 * @returns The line, or `''`.
 * @example
 * ```ts
 * briefValues([lookupItem], 200); // 'VALUES: user_id=mia_li_3668, payment_id=credit_card_4421486, …'
 * ```
 */
export function briefValues(originals: readonly ContextItem[], allowance: number, cache?: RulesCache): string {
  return valuesLine(rankValues(originals, cache), allowance);
}
