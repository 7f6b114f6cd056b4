import { InvalidRequestError } from './errors.js';
import type { Provider } from './models.js';

/** Pixel size of an image, and for OpenAI its detail level. */
export interface ImageSize {
  /** Width in pixels (positive integer). */
  readonly width: number;
  /** Height in pixels (positive integer). */
  readonly height: number;
  /** OpenAI detail level; `auto` is counted as `high` (the upper bound). @defaultValue `'auto'` */
  readonly detail?: 'low' | 'high' | 'auto';
}

function scale(width: number, height: number, factor: number): [number, number] {
  return [Math.floor(width * factor), Math.floor(height * factor)];
}

/**
 * Tokens one image costs as input, by the provider's documented rule.
 *
 * @remarks
 * - `openai`: `low` detail is 85 tokens. `high` (and `auto`): fit within 2048×2048, then scale down so the shorter
 *   side is at most 768 px, then 85 + 170 per 512 px tile (the GPT-4o / GPT-4.1 / o-series rule; gpt-4o-mini bills
 *   images with other multipliers, not modelled here).
 * - `anthropic`: scale down so the long edge is at most 1568 px, then `ceil(width × height / 750)`, at most 1600.
 *
 * @param provider - `openai` or `anthropic`
 * @param size - pixel size (and detail for OpenAI)
 * @returns tokens for the image
 * @throws {@link InvalidRequestError} for an unknown provider, or when width or height is not a positive integer
 * @example
 * ```ts
 * imageTokens('openai', { width: 1024, height: 1024, detail: 'high' }); // 765
 * imageTokens('openai', { width: 4096, height: 4096, detail: 'low' }); // 85
 * imageTokens('anthropic', { width: 1000, height: 1000 }); // 1334
 * ```
 */
export function imageTokens(provider: Provider, size: ImageSize): number {
  if (provider !== 'openai' && provider !== 'anthropic') throw new InvalidRequestError('provider', `expected openai or anthropic, got ${String(provider)}`);
  if (typeof size !== 'object' || size === null) throw new InvalidRequestError('image', 'expected { width, height }');
  const { width, height } = size;
  for (const [field, value] of [['width', width], ['height', height]] as const) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new InvalidRequestError(`image.${field}`, `expected a positive integer of pixels, got ${String(value)}`);
  }
  if (provider === 'anthropic') {
    const long = Math.max(width, height);
    const [w, h] = long > 1568 ? scale(width, height, 1568 / long) : [width, height];
    return Math.min(1600, Math.ceil((w * h) / 750));
  }
  if (size.detail === 'low') return 85;
  let [w, h] = [width, height];
  const long = Math.max(w, h);
  if (long > 2048) [w, h] = scale(w, h, 2048 / long);
  const short = Math.min(w, h);
  if (short > 768) [w, h] = scale(w, h, 768 / short);
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}
