/** The request formats `render` produces. */
export type ProviderName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'text';

/** A tool the model may call, declared in the request (provider-neutral). */
export interface ToolDefinition {
  /** Tool name, `^[a-zA-Z0-9_-]{1,64}$`. */
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the arguments object. @defaultValue `{ type: 'object' }` */
  readonly parameters?: { readonly [key: string]: unknown };
}

/**
 * Options of {@link render}. Every option but `provider` is optional; each states the providers it affects.
 */
export interface RenderOptions<P extends ProviderName = ProviderName> {
  /** The request format. */
  readonly provider: P;
  /**
   * The model the request names, without a `provider:` prefix. Required when the commit's model (`provider:model`)
   * is of another provider than `provider` (an `openai:` model rendered for `anthropic`, or the reverse): render
   * refuses that with `ModelMismatchError` rather than name a model the provider does not serve.
   * @defaultValue the commit's model without its `provider:` prefix
   */
  readonly model?: string;
  /** Anthropic: `max_tokens` of the request, in tokens. @defaultValue 4096 */
  readonly maxTokens?: number;
  /** OpenAI (chat and responses): the role system items are sent with. @defaultValue 'system' */
  readonly systemRole?: 'system' | 'developer';
  /** Anthropic: place `cache_control` breakpoints. @defaultValue true */
  readonly cache?: boolean;
  /**
   * Anthropic: the minimum cacheable prefix, in tokens; a breakpoint is only placed where the prefix up to
   * it is at least this long. @defaultValue {@link minCacheableTokens} of the commit's model
   */
  readonly minCacheableTokens?: number;
  /**
   * Accept a commit whose last rendered message is the assistant's. OpenAI sends it as is; Anthropic sends
   * it as a prefill (trailing whitespace of its last text removed, as the API requires). @defaultValue false
   */
  readonly allowAssistantLast?: boolean;
  /**
   * Tools declared in the request, in this order, after those the commit advertises (a commit of a session with a
   * tool catalogue carries its own; a tool named here and there is declared once, as the commit has it). Anthropic also requires every tool used in the history to
   * be declared: names used but not listed here are declared after these with an empty object schema.
   * @defaultValue []
   */
  readonly tools?: readonly ToolDefinition[];
}

/** Options a {@link Provider} receives: {@link RenderOptions} resolved, defaults applied. */
export interface ProviderOptions {
  /** Model name without the `provider:` prefix. */
  readonly model: string;
  readonly maxTokens: number;
  readonly systemRole: 'system' | 'developer';
  readonly cache: boolean;
  readonly minCacheableTokens: number;
  readonly allowAssistantLast: boolean;
  readonly tools: readonly ToolDefinition[];
}
