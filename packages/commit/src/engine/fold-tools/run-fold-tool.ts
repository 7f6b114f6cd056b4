import type { ContextItem } from '@ctxgit/rules';
import type { ContextCommit } from '../../store/context-commit.js';
import { FoldToolError } from '../../errors.js';
import type { ExpandedSummary } from '../expanded-summary.js';
import {
  FOLD_PEEK_LENGTH,
  FOLD_SEARCH_HITS,
  FOLD_SEARCH_MAX_HITS,
  FOLD_SEARCH_MAX_QUERY,
  FOLD_TOOL_NAMES,
  resolveMaxChars,
  type FoldToolName,
  type FoldToolOptions,
} from './fold-tool-definitions.js';
import { foldTranscript, type FoldTranscript } from './fold-transcript.js';

/** A tool call the model made, as a backend receives it. */
export interface FoldToolCall {
  /** The tool's name: `fold_peek`, `fold_expand` or `fold_search`. */
  readonly name: string;
  /** The arguments: JSON text (OpenAI) or the parsed object (Anthropic's `input`). */
  readonly arguments: string | { readonly [key: string]: unknown };
}

/** What a fold tool call gives back: `output` is the tool result to append (with `isError` as the result's error flag). */
export interface FoldToolResult {
  readonly name: string;
  /** The text the model gets back: the result, or what was wrong and what to do instead. */
  readonly output: string;
  readonly isError: boolean;
  /** The typed error when the call was wrong. */
  readonly error?: FoldToolError;
}

/** What the tools read: a commit and the expand of its summaries. */
export interface FoldReader {
  readonly commit: ContextCommit;
  expand(key: string): Promise<ExpandedSummary>;
}

type Args = { readonly [key: string]: unknown };

const bad = (tool: string, detail: string): FoldToolError =>
  new FoldToolError('E_FOLD_TOOL_BAD_ARGUMENTS', `${tool}: ${detail}`, { tool, detail });

function parseArgs(tool: FoldToolName, raw: FoldToolCall['arguments'], allowed: readonly string[]): Args {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      throw bad(tool, 'the arguments are not JSON text');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(tool, 'the arguments must be a JSON object');
  const extra = Object.keys(value).filter((k) => !allowed.includes(k));
  if (extra.length > 0) throw bad(tool, `unknown argument(s) ${extra.join(', ')}; the arguments are ${allowed.join(', ')}`);
  return value as Args;
}

function intArg(tool: string, args: Args, name: string, fallback: number, min: number): number {
  const v = args[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw bad(tool, `${name} must be an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  return v;
}

function stringArg(tool: string, args: Args, name: string): string | undefined {
  const v = args[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw bad(tool, `${name} must be a non-empty string`);
  return v.trim();
}

function requiredString(tool: string, args: Args, name: string): string {
  const v = stringArg(tool, args, name);
  if (v === undefined) throw bad(tool, `${name} is required`);
  return v;
}

/** The summaries the model can name: every `summary` item, then those absorbed by later folds. */
function resolveSummary(tool: string, commit: ContextCommit, ref: string): ContextItem {
  const visible = commit.items.filter((it) => it.state === 'summary');
  const byIndex = /^#?\d+$/.test(ref) ? visible[Number(ref.replace('#', '')) - 1] : undefined;
  const hit = byIndex ?? commit.items.find((it) => it.key === ref && (it.state === 'summary' || it.folded !== undefined));
  if (hit !== undefined) return hit;
  const known = visible.map((it, i) => `${i + 1}=${it.key}`);
  throw new FoldToolError(
    'E_FOLD_TOOL_UNKNOWN_SUMMARY',
    `${tool}: no summary "${ref}" in this context; ${known.length === 0 ? 'nothing is folded yet' : `the summaries are ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''}`}`,
    { tool, summary: ref, summaries: visible.length },
  );
}

/** Cuts `text` at `end` without splitting a surrogate pair. */
function safeEnd(text: string, end: number): number {
  const c = text.charCodeAt(end - 1);
  return end < text.length && c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

async function peek(r: FoldReader, args: Args, maxChars: number): Promise<string> {
  const summary = resolveSummary('fold_peek', r.commit, requiredString('fold_peek', args, 'summary'));
  const offset = intArg('fold_peek', args, 'offset', 0, 0);
  const length = intArg('fold_peek', args, 'length', Math.min(FOLD_PEEK_LENGTH, maxChars), 1);
  if (length > maxChars) {
    throw new FoldToolError('E_FOLD_TOOL_TOO_LARGE', `fold_peek: length ${length} is over the ${maxChars} characters one result may hold; read it in pages`, { tool: 'fold_peek', length, maxChars });
  }
  const t = foldTranscript(await r.expand(summary.key));
  const total = t.text.length;
  if (offset >= total) {
    throw new FoldToolError('E_FOLD_TOOL_OUT_OF_RANGE', `fold_peek: offset ${offset} is past the end of summary ${summary.key} (${total} characters); pass an offset below ${total}`, {
      tool: 'fold_peek',
      summary: summary.key,
      offset,
      total,
    });
  }
  const end = safeEnd(t.text, Math.min(total, offset + length));
  const where = end < total ? `next offset ${end}` : 'the end';
  return `[fold_peek ${summary.key}: characters ${offset}-${end} of ${total}; ${where}]\n${t.text.slice(offset, end)}`;
}

async function expand(r: FoldReader, args: Args, maxChars: number): Promise<string> {
  const summary = resolveSummary('fold_expand', r.commit, requiredString('fold_expand', args, 'summary'));
  const e = await r.expand(summary.key);
  const originals = e.originals.map((o) => ({
    key: o.key,
    oid: o.oid,
    role: o.node.role,
    ...(o.node.name === undefined ? {} : { name: o.node.name }),
    ...(o.node.input === undefined ? {} : { input: o.node.input }),
    output: o.node.output,
  }));
  const out = JSON.stringify({ summary: e.key, commit: e.commit, originals });
  if (out.length > maxChars) {
    throw new FoldToolError(
      'E_FOLD_TOOL_TOO_LARGE',
      `fold_expand: summary ${summary.key} holds ${out.length} characters, over the ${maxChars} one result may hold; read it with fold_peek (offset, length) or find the part with fold_search`,
      { tool: 'fold_expand', summary: summary.key, chars: out.length, maxChars },
    );
  }
  return out;
}

interface Hit {
  readonly summary: string;
  readonly key: string;
  readonly offset: number;
  readonly matched: readonly string[];
  readonly snippet: string;
}

async function search(r: FoldReader, args: Args, maxChars: number): Promise<string> {
  const query = requiredString('fold_search', args, 'query');
  if (query.length > FOLD_SEARCH_MAX_QUERY) {
    throw new FoldToolError('E_FOLD_TOOL_TOO_LARGE', `fold_search: the query has ${query.length} characters, at most ${FOLD_SEARCH_MAX_QUERY}; search for a few distinctive words`, {
      tool: 'fold_search',
      chars: query.length,
      maxChars: FOLD_SEARCH_MAX_QUERY,
    });
  }
  const limit = intArg('fold_search', args, 'limit', FOLD_SEARCH_HITS, 1);
  if (limit > FOLD_SEARCH_MAX_HITS) throw bad('fold_search', `limit must be at most ${FOLD_SEARCH_MAX_HITS}, got ${limit}`);
  const only = stringArg('fold_search', args, 'summary');
  const summaries = only === undefined ? r.commit.items.filter((it) => it.state === 'summary') : [resolveSummary('fold_search', r.commit, only)];
  const words = [...new Set(query.toLowerCase().split(/\s+/).filter((w) => w !== ''))];
  const hits: Hit[] = [];
  for (const s of summaries) {
    const t: FoldTranscript = foldTranscript(await r.expand(s.key));
    const lower = t.text.toLowerCase();
    for (const p of t.parts) {
      // The content only: the header line's key and oid are not words of the conversation.
      const body = lower.slice(p.body, p.end);
      const found = words.map((w) => ({ w, at: body.indexOf(w) })).filter((x) => x.at >= 0);
      if (found.length === 0) continue;
      const offset = p.body + Math.min(...found.map((x) => x.at));
      const from = Math.max(p.body, offset - 80);
      const snippet = t.text.slice(from, safeEnd(t.text, Math.min(p.end, offset + 160))).replace(/\s+/g, ' ').trim();
      hits.push({ summary: s.key, key: p.key, offset, matched: found.map((x) => x.w), snippet });
    }
  }
  // Most words matched first; then the order of the context (stable sort).
  hits.sort((a, b) => b.matched.length - a.matched.length);
  const shown = hits.slice(0, limit);
  let out = JSON.stringify({ query, total: hits.length, hits: shown });
  while (out.length > maxChars && shown.length > 0) {
    shown.pop();
    out = JSON.stringify({ query, total: hits.length, hits: shown });
  }
  return out;
}

/**
 * Runs one fold tool call against a commit. A wrong call (unknown tool, bad arguments, unknown summary, offsets out
 * of range, oversized requests) gives an error result whose text tells the model what to do; a damaged repository
 * (an original that does not hash to its recorded id) throws.
 */
export async function runFoldTool(r: FoldReader, call: FoldToolCall, opts: FoldToolOptions = {}): Promise<FoldToolResult> {
  const maxChars = resolveMaxChars(opts);
  const name = typeof call?.name === 'string' ? call.name : String(call?.name);
  try {
    if (!FOLD_TOOL_NAMES.includes(name as FoldToolName)) {
      throw new FoldToolError('E_FOLD_TOOL_UNKNOWN_TOOL', `no fold tool "${name}"; the fold tools are ${FOLD_TOOL_NAMES.join(', ')}`, { tool: name });
    }
    let output: string;
    if (name === 'fold_peek') output = await peek(r, parseArgs(name, call.arguments, ['summary', 'offset', 'length']), maxChars);
    else if (name === 'fold_expand') output = await expand(r, parseArgs(name, call.arguments, ['summary']), maxChars);
    else output = await search(r, parseArgs('fold_search', call.arguments, ['query', 'summary', 'limit']), maxChars);
    return { name, output, isError: false };
  } catch (err) {
    if (!(err instanceof FoldToolError)) throw err;
    return { name, output: `error ${err.code}: ${err.message}`, isError: true, error: err };
  }
}
