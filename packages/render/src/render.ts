import { InvalidCommitError, InvalidRenderOptionError, ModelMismatchError, UnknownProviderError } from './errors.js';
import { minCacheableTokens } from './min-cacheable-tokens.js';
import { checkItems } from './check-items.js';
import type { Provider, RenderOutputs } from './provider.js';
import { providers } from './providers.js';
import type { RenderInput } from './render-input.js';
import type { ProviderName, ProviderOptions, RenderOptions, ToolDefinition } from './render-options.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** The model family each request format serves (`text` serves any); a commit's model of another known family is refused. */
const FAMILY: Readonly<Record<ProviderName, string | undefined>> = { 'openai-chat': 'openai', 'openai-responses': 'openai', anthropic: 'anthropic', text: undefined };
const KNOWN_FAMILIES: ReadonlySet<string> = new Set(['openai', 'anthropic']);

const describe = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

function resolve(commit: RenderInput, options: RenderOptions): ProviderOptions {
  const fail = (option: string, value: unknown, expected: string): never => {
    throw new InvalidRenderOptionError({ option, value: describe(value), expected });
  };
  const { maxTokens = 4096, systemRole = 'system', cache = true, allowAssistantLast = false, tools = [] } = options;
  if (!Number.isSafeInteger(maxTokens) || maxTokens < 1) fail('maxTokens', maxTokens, 'a positive integer');
  if (systemRole !== 'system' && systemRole !== 'developer') fail('systemRole', systemRole, "'system' or 'developer'");
  if (typeof cache !== 'boolean') fail('cache', cache, 'a boolean');
  if (typeof allowAssistantLast !== 'boolean') fail('allowAssistantLast', allowAssistantLast, 'a boolean');
  if (!Array.isArray(tools)) fail('tools', tools, 'an array of ToolDefinition');
  const names = new Set<string>();
  tools.forEach((tool, index) => {
    if (typeof tool?.name !== 'string' || !TOOL_NAME.test(tool.name) || names.has(tool.name)) {
      fail(`tools[${index}].name`, tool?.name, 'a unique name matching ^[a-zA-Z0-9_-]{1,64}$');
    }
    names.add(tool.name);
  });
  if (typeof commit.model !== 'string') throw new InvalidCommitError({ index: -1, field: 'model', value: describe(commit.model) });
  const colon = commit.model.indexOf(':');
  let model = colon === -1 ? commit.model : commit.model.slice(colon + 1);
  if (options.model !== undefined) {
    if (typeof options.model !== 'string' || options.model === '') fail('model', options.model, 'a non-empty model name');
    model = options.model;
  } else {
    const family = FAMILY[options.provider];
    const own = colon === -1 ? undefined : commit.model.slice(0, colon);
    if (family !== undefined && own !== undefined && own !== family && KNOWN_FAMILIES.has(own)) {
      throw new ModelMismatchError({ provider: options.provider, model: commit.model, expected: family });
    }
  }
  const minimum = options.minCacheableTokens ?? minCacheableTokens(model);
  if (!Number.isSafeInteger(minimum) || minimum < 0) fail('minCacheableTokens', minimum, 'a non-negative integer');
  return { model, maxTokens, systemRole, cache, minCacheableTokens: minimum, allowAssistantLast, tools: withAdvertised(commit, tools) };
}

/** The tools a commit advertises (its catalogue view, `open_tools` last), then those of the options it does not name. */
function withAdvertised(commit: RenderInput, tools: readonly ToolDefinition[]): readonly ToolDefinition[] {
  const advertised = commit.tools?.advertised;
  if (advertised === undefined || advertised.length === 0) return tools;
  const named = new Set(advertised.map((t) => t.name));
  return [...advertised, ...tools.filter((t) => !named.has(t.name))];
}

/**
 * Renders a ContextCommit into the request body of one provider. Pure: reads only its arguments, never
 * mutates them, and the same commit and options give byte-identical `JSON.stringify` output.
 *
 * Semantics (every provider): `summarized` items are skipped; a `summary` item is assistant text starting
 * `[Summary] `; system items come first, in item order; a full tool item with an intact call/result pair
 * renders as the provider's native tool call and result (the calls of tool items that directly follow an
 * assistant item join its message; otherwise an assistant turn holding only the calls is written); any other
 * tool item is user text; runs of items with the same `attachedFrom` are text between attach markers; text
 * imitating a marker is escaped ({@link escapeMarkers}). The model name is `commit.model` without its
 * `provider:` prefix. Tools: those the commit advertises (`commit.tools`, a bounded view of the session's catalogue
 * with `open_tools` last), exactly, in their order, then `options.tools` whose names they do not use.
 *
 * @param commit - The commit to render.
 * @param options - The provider and its options; see {@link RenderOptions} for defaults.
 * @returns The request body (`text`: a string), typed per provider so that it is assignable to the official SDK's request type.
 * @throws {@link EmptyRenderError} when nothing conversational is left to send.
 * @throws {@link InvalidEndingError} when the last message is the assistant's and `allowAssistantLast` is not set.
 * @throws {@link UnknownProviderError}, {@link InvalidRenderOptionError}, {@link InvalidCommitError} on bad input.
 * @example
 * ```ts
 * const body = render(commit, { provider: 'anthropic', maxTokens: 1024 });
 * await anthropicClient.messages.create(body);
 * process.stdout.write(render(commit, { provider: 'text' }));
 * ```
 */
export function render<P extends ProviderName>(commit: RenderInput, options: RenderOptions<P>): RenderOutputs[P] {
  if (typeof commit !== 'object' || commit === null) throw new InvalidCommitError({ index: -1, field: 'commit', value: describe(commit) });
  if (typeof options !== 'object' || options === null) {
    throw new InvalidRenderOptionError({ option: 'options', value: describe(options), expected: '{ provider, ... }' });
  }
  if (typeof options.provider !== 'string' || !Object.hasOwn(providers, options.provider)) {
    throw new UnknownProviderError({ provider: String(options.provider), known: Object.keys(providers) });
  }
  const provider: Provider<P> = providers[options.provider];
  checkItems(commit.items);
  return provider.render(commit.items, resolve(commit, options));
}
