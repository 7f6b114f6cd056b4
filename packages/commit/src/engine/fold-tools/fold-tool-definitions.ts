import { InvalidOptionError } from '../../errors.js';

/** Names of the tools that let a model read its own folds. */
export type FoldToolName = 'fold_peek' | 'fold_expand' | 'fold_search';

/** The names of the fold tools, in their order. */
export const FOLD_TOOL_NAMES: readonly FoldToolName[] = ['fold_peek', 'fold_expand', 'fold_search'];

/** Default of `maxChars` ({@link FoldToolOptions}): characters one fold tool result may hold. */
export const FOLD_TOOL_MAX_CHARS = 16_000;
/** Default `length` of a `fold_peek`, characters. */
export const FOLD_PEEK_LENGTH = 4000;
/** Most hits a `fold_search` returns. */
export const FOLD_SEARCH_MAX_HITS = 20;
/** Default hits of a `fold_search`. */
export const FOLD_SEARCH_HITS = 5;
/** Longest `fold_search` query, characters. */
export const FOLD_SEARCH_MAX_QUERY = 200;

/** Options of {@link foldTools}, {@link foldToolsFor} and {@link Session.foldTool}. */
export interface FoldToolOptions {
  /** Characters one tool result may hold (a `fold_peek` length, an expanded summary). @defaultValue 16_000 */
  readonly maxChars?: number;
}

/** A fold tool, provider-neutral: the shape of `ToolDefinition` of `@ctxgit/render` (pass it as `render`'s `tools`). */
export interface FoldToolDefinition {
  readonly name: FoldToolName;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: { readonly type: 'object'; readonly [key: string]: unknown };
}

/** A fold tool in the OpenAI Chat Completions `tools` format. */
export interface OpenAIChatFoldTool {
  type: 'function';
  function: { name: FoldToolName; description: string; parameters: { [key: string]: unknown } };
}

/** A fold tool in the OpenAI Responses `tools` format. */
export interface OpenAIResponsesFoldTool {
  type: 'function';
  name: FoldToolName;
  description: string;
  parameters: { [key: string]: unknown };
  strict: false;
}

/** A fold tool in the Anthropic Messages `tools` format. */
export interface AnthropicFoldTool {
  name: FoldToolName;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** `opts.maxChars` or its default; refuses a value that is not a positive integer. */
export function resolveMaxChars(opts: FoldToolOptions): number {
  const v = opts.maxChars ?? FOLD_TOOL_MAX_CHARS;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new InvalidOptionError('maxChars', v, 'a positive integer number of characters');
  return v;
}

const SUMMARY_ARG = {
  type: 'string',
  description: 'The summary: its key (sm_…, as fold_search reports it), or its position, "1" for the first [Summary] message of this conversation, "2" for the second…',
};

/**
 * The three fold tools, provider-neutral. `fold_peek` reads characters of a summary's originals (their transcript:
 * one header line per original, then its arguments and its exact text), `fold_expand` returns every original of a
 * summary byte for byte (verified by git object ids), `fold_search` finds words in the originals of every summary.
 *
 * @param opts - see {@link FoldToolOptions}; `maxChars` bounds `fold_peek`'s `length` (default 16,000)
 * @returns the definitions, in the order of {@link FOLD_TOOL_NAMES}
 * @example
 * ```ts
 * const body = render(await s.commit(), { provider: 'anthropic', tools: [...myTools, ...foldTools()] });
 * ```
 */
export function foldTools(opts: FoldToolOptions = {}): FoldToolDefinition[] {
  const maxChars = resolveMaxChars(opts);
  return [
    {
      name: 'fold_peek',
      description:
        'Read part of what an earlier [Summary] message folded: the original messages and tool results behind it, as text. ' +
        'Page through with offset and length (characters); the result says where the next page starts.',
      parameters: {
        type: 'object',
        properties: {
          summary: SUMMARY_ARG,
          offset: { type: 'integer', minimum: 0, description: 'First character to read. Default 0.' },
          length: { type: 'integer', minimum: 1, maximum: maxChars, description: `Characters to read. Default ${Math.min(FOLD_PEEK_LENGTH, maxChars)}.` },
        },
        required: ['summary'],
        additionalProperties: false,
      },
    },
    {
      name: 'fold_expand',
      description: `Return every original message and tool result that a [Summary] message folded, exactly as they were (JSON). Refused above ${maxChars} characters: use fold_peek then.`,
      parameters: { type: 'object', properties: { summary: SUMMARY_ARG }, required: ['summary'], additionalProperties: false },
    },
    {
      name: 'fold_search',
      description:
        'Search the originals folded into [Summary] messages for words (case-insensitive; the best matches first, each with the summary key, ' +
        'the offset to pass to fold_peek and a snippet).',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: FOLD_SEARCH_MAX_QUERY, description: 'Words to find, e.g. an id, a file name or an error message.' },
          summary: { ...SUMMARY_ARG, description: `Only this summary. ${SUMMARY_ARG.description} Default: every summary.` },
          limit: { type: 'integer', minimum: 1, maximum: FOLD_SEARCH_MAX_HITS, description: `Most hits to return. Default ${FOLD_SEARCH_HITS}.` },
        },
        required: ['query'],
        additionalProperties: false,
      },
    },
  ];
}

/**
 * The fold tools in one provider's `tools` format, ready to put into a request body that does not come from `render`.
 *
 * @param provider - `openai-chat`, `openai-responses` or `anthropic`
 * @param opts - see {@link FoldToolOptions}
 * @returns the tool declarations
 * @example
 * ```ts
 * const body = { ...render(commit, { provider: 'openai-chat' }), tools: foldToolsFor('openai-chat') };
 * ```
 */
export function foldToolsFor(provider: 'openai-chat', opts?: FoldToolOptions): OpenAIChatFoldTool[];
export function foldToolsFor(provider: 'openai-responses', opts?: FoldToolOptions): OpenAIResponsesFoldTool[];
export function foldToolsFor(provider: 'anthropic', opts?: FoldToolOptions): AnthropicFoldTool[];
export function foldToolsFor(provider: 'openai-chat' | 'openai-responses' | 'anthropic', opts: FoldToolOptions = {}): (OpenAIChatFoldTool | OpenAIResponsesFoldTool | AnthropicFoldTool)[] {
  if (provider !== 'openai-chat' && provider !== 'openai-responses' && provider !== 'anthropic') {
    throw new InvalidOptionError('provider', provider, "'openai-chat', 'openai-responses' or 'anthropic'");
  }
  return foldTools(opts).map((t) => {
    const parameters = structuredClone(t.parameters);
    if (provider === 'openai-chat') return { type: 'function', function: { name: t.name, description: t.description, parameters } };
    if (provider === 'openai-responses') return { type: 'function', name: t.name, description: t.description, parameters, strict: false };
    return { name: t.name, description: t.description, input_schema: parameters };
  });
}
