import { ImageSizeUnknownError, InvalidRequestError } from './errors.js';
import { imageTokens } from './image-tokens.js';
import type { ImageSize } from './image-tokens.js';
import type { Provider } from './models.js';
import type { CountRequestOptions } from './request-count.js';
import type { Tokenizer } from './tokenizer.js';

/** Accumulates a request count while walking a body; internal to the count-* functions. */
export class RequestWalker {
  messages = 0;
  tools = 0;
  images = 0;
  overhead = 0;
  readonly perMessage: number[] = [];
  private current = 0;

  constructor(
    private readonly provider: Provider,
    private readonly tokenizer: Tokenizer,
    private readonly options: CountRequestOptions,
  ) {}

  text(value: unknown, path: string): void {
    if (typeof value !== 'string') throw new InvalidRequestError(path, `expected a string, got ${describe(value)}`);
    const n = this.tokenizer.count(value);
    this.messages += n;
    this.current += n;
  }

  fixed(n: number): void {
    this.messages += n;
    this.current += n;
  }

  image(part: Record<string, unknown>, path: string, detail: unknown): void {
    const own = sizeOf(part) ?? (isRecord(part['image_url']) ? sizeOf(part['image_url']) : undefined);
    const size = own ?? this.options.imageSize?.(part, path);
    if (size === undefined) throw new ImageSizeUnknownError(path);
    const d = detail === 'low' || detail === 'high' ? detail : 'auto';
    const n = imageTokens(this.provider, { width: size.width, height: size.height, detail: size.detail ?? d });
    this.images += n;
    this.current += n;
  }

  endMessage(): void {
    this.perMessage.push(this.current);
    this.current = 0;
  }

  toolText(value: string): void {
    this.tools += this.tokenizer.count(value);
  }
}

function sizeOf(value: Record<string, unknown>): ImageSize | undefined {
  const { width, height } = value;
  return typeof width === 'number' && typeof height === 'number' ? { width, height } : undefined;
}

/** True for a plain object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Short description of a value's type, for error messages. */
export function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** Returns `value` as an array or throws naming `path`. */
export function arrayAt(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new InvalidRequestError(path, `expected an array, got ${describe(value)}`);
  return value;
}

/** Returns `value` as an object or throws naming `path`. */
export function recordAt(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) throw new InvalidRequestError(path, `expected an object, got ${describe(value)}`);
  return value;
}
