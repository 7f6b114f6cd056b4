import { ENCODING_NAMES } from './encoding.js';
import type { EncodingName } from './encoding.js';
import { InvalidModelError, UnknownModelError } from './errors.js';
import { DEFAULT_MODELS, PROVIDER_CACHE_PRICES } from './models.js';
import type { CachePrices, ModelInfo, ModelTable, Provider } from './models.js';

/** Options of {@link resolveModel}. Sizes in tokens. */
export interface ResolveModelOptions {
  /** Entries added to, or replacing, {@link DEFAULT_MODELS} (same keys). @defaultValue none */
  readonly models?: ModelTable;
  /** Context window to use instead of the table's; required for a model the table lacks. @defaultValue the table's */
  readonly window?: number;
  /** Output limit to use instead of the table's. @defaultValue the table's; 0 for a model the table lacks */
  readonly maxOutput?: number;
  /** Encoding to use instead of the table's. @defaultValue the table's; for a model the table lacks, `o200k_base` for `openai`, else `estimate` */
  readonly encoding?: EncodingName | 'estimate';
}

/** A resolved model: its table entry plus the id split into parts. */
export interface ResolvedModel extends ModelInfo {
  /** Prompt-cache prices: the entry's, else the provider's. */
  readonly cache: CachePrices;
  /** The normalized id, `"provider:model"`. */
  readonly id: string;
  /** The model part of the id. */
  readonly model: string;
  /** True when the entry came from the table (or `models`), false when built from an explicit `window`. */
  readonly known: boolean;
}

const PROVIDERS: readonly Provider[] = ['openai', 'anthropic'];
const ID = /^([a-z][a-z0-9-]*):([A-Za-z0-9][A-Za-z0-9._-]*)$/;
const DATE_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8})$/;

function checkTokens(field: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidModelError(field, value, `an integer number of tokens ≥ ${min}`);
  }
  return value;
}

function checkEntry(key: string, info: unknown): ModelInfo {
  if (typeof info !== 'object' || info === null) throw new InvalidModelError(`models[${key}]`, info, 'a ModelInfo object');
  const entry = info as Record<string, unknown>;
  if (!(PROVIDERS as readonly unknown[]).includes(entry['provider']) || !key.startsWith(`${String(entry['provider'])}:`)) {
    throw new InvalidModelError(`models[${key}].provider`, entry['provider'], `${PROVIDERS.join(' | ')}, matching the key's prefix`);
  }
  const window = checkTokens(`models[${key}].window`, entry['window'], 1);
  const maxOutput = checkTokens(`models[${key}].maxOutput`, entry['maxOutput'], 0);
  if (maxOutput > window) throw new InvalidModelError(`models[${key}].maxOutput`, maxOutput, `at most the window (${window})`);
  const encoding = entry['encoding'];
  if (encoding !== 'estimate' && !(ENCODING_NAMES as readonly unknown[]).includes(encoding)) {
    throw new InvalidModelError(`models[${key}].encoding`, encoding, [...ENCODING_NAMES, 'estimate'].join(' | '));
  }
  const cache = entry['cache'] as Record<string, unknown> | undefined;
  if (cache !== undefined) {
    const { read, write } = typeof cache === 'object' && cache !== null ? cache : { read: undefined, write: undefined };
    if (!(typeof read === 'number' && Number.isFinite(read) && read >= 0 && typeof write === 'number' && Number.isFinite(write) && write > 0)) {
      throw new InvalidModelError(`models[${key}].cache`, cache, '{ read, write }: multiples of an uncached input token, read ≥ 0, write > 0');
    }
  }
  return info as ModelInfo;
}

/**
 * Looks up `"provider:model"` in the model table (built-in {@link DEFAULT_MODELS} plus `options.models`).
 *
 * @remarks
 * A dated snapshot id falls back to its base entry when it has none of its own
 * (`openai:gpt-4o-2024-08-06` → `openai:gpt-4o`, `anthropic:claude-sonnet-4-5-20250929` → `anthropic:claude-sonnet-4-5`).
 * `window`, `maxOutput` and `encoding` in `options` override the entry. A model that is in neither table is
 * accepted only with an explicit `window`.
 *
 * @param id - `"provider:model"`, e.g. `openai:gpt-4o`
 * @param options - see {@link ResolveModelOptions}
 * @returns the resolved model (sizes in tokens)
 * @throws {@link InvalidModelError} for a malformed id, override or table entry; {@link UnknownModelError} for an unknown model without `window`
 * @example
 * ```ts
 * resolveModel('openai:gpt-4o'); // { id: 'openai:gpt-4o', provider: 'openai', window: 128000, maxOutput: 16384, encoding: 'o200k_base', ... }
 * resolveModel('anthropic:claude-sonnet-4-5').encoding; // 'estimate'
 * resolveModel('openai:gpt-4.1').cache; // { read: 0.25, write: 1 }: cached input bills a quarter
 * resolveModel('openai:my-finetune', { window: 32000 }).window; // 32000
 * ```
 */
export function resolveModel(id: string, options: ResolveModelOptions = {}): ResolvedModel {
  const match = typeof id === 'string' ? ID.exec(id) : null;
  if (match === null) throw new InvalidModelError('id', id, 'a "provider:model" string such as "openai:gpt-4o"');
  const provider = match[1] as string;
  const model = match[2] as string;
  const table: Record<string, ModelInfo> = { ...DEFAULT_MODELS };
  for (const [key, info] of Object.entries(options.models ?? {})) {
    if (ID.exec(key) === null) throw new InvalidModelError('models key', key, 'a "provider:model" string');
    table[key] = checkEntry(key, info);
  }
  const found = table[id] ?? table[id.replace(DATE_SUFFIX, '')];
  if (found === undefined) {
    if (options.window === undefined) throw new UnknownModelError(id, Object.keys(table).sort());
    if (!(PROVIDERS as readonly string[]).includes(provider)) throw new InvalidModelError('provider', provider, PROVIDERS.join(' | '));
  }
  const window = options.window === undefined ? undefined : checkTokens('window', options.window, 1);
  const maxOutput = options.maxOutput === undefined ? undefined : checkTokens('maxOutput', options.maxOutput, 0);
  const encoding = options.encoding;
  if (encoding !== undefined && encoding !== 'estimate' && !(ENCODING_NAMES as readonly unknown[]).includes(encoding)) {
    throw new InvalidModelError('encoding', encoding, [...ENCODING_NAMES, 'estimate'].join(' | '));
  }
  const base: ModelInfo = found ?? { provider: provider as Provider, window: 1, maxOutput: 0, encoding: provider === 'openai' ? 'o200k_base' : 'estimate' };
  const resolvedWindow = window ?? base.window;
  const resolvedMaxOutput = maxOutput ?? Math.min(base.maxOutput, resolvedWindow);
  if (resolvedMaxOutput > resolvedWindow) throw new InvalidModelError('maxOutput', resolvedMaxOutput, `at most the window (${resolvedWindow})`);
  const cache = base.cache ?? PROVIDER_CACHE_PRICES[base.provider];
  const merged = { provider: base.provider, window: resolvedWindow, maxOutput: resolvedMaxOutput, encoding: encoding ?? base.encoding, cache };
  return Object.freeze({ id, model, known: found !== undefined, ...merged });
}
