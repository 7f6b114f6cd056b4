/** Counts tokens of text for one encoding. */
export interface Tokenizer {
  /** Encoding name, e.g. `o200k_base`, or `estimate` for the heuristic. */
  readonly encoding: string;
  /** True when counts are a heuristic rather than the model's own encoding. */
  readonly estimated: boolean;
  /** Number of tokens in `text`. */
  count(text: string): number;
}
