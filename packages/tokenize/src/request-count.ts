import type { ImageSize } from './image-tokens.js';

/** Request body shapes {@link countRequest} understands. */
export type RequestFormat = 'openai-chat' | 'openai-responses' | 'anthropic-messages';

/** Options of {@link countRequest}. */
export interface CountRequestOptions {
  /**
   * Size of an image part whose size is not on the part itself (`width`/`height` on the part, or on `image_url`).
   * Receives the raw part and its JSON path; returns `undefined` when unknown (the count then fails).
   * @defaultValue none: every image must carry its own size
   */
  readonly imageSize?: (part: unknown, path: string) => ImageSize | undefined;
}

/** Token count of one request body, split by where the tokens go. All figures in tokens. */
export interface RequestCount {
  /** What the provider bills as input for the body: `messages + tools + images + overhead`. */
  readonly total: number;
  /** True when any part is a heuristic (estimate tokenizer, or an Anthropic body). */
  readonly estimated: boolean;
  /** Text of the messages (system/instructions included), with their per-message overhead, images excluded. */
  readonly messages: number;
  /** Tool definitions. */
  readonly tools: number;
  /** Images, by {@link imageTokens}. */
  readonly images: number;
  /** Fixed per-request tokens (reply priming; Anthropic's tool-use system prompt). */
  readonly overhead: number;
  /** Tokens of each message (text, overhead and images), in body order; system/instructions first when present. */
  readonly perMessage: readonly number[];
}
