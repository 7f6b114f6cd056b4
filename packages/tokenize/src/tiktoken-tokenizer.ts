import type { BpeCounter } from './bpe-counter.js';
import { checkText } from './check-text.js';
import type { EncodingName } from './encoding.js';
import type { Tokenizer } from './tokenizer.js';

/** Exact tokenizer over js-tiktoken rank data; special-token strings in text count as plain text. */
export class TiktokenTokenizer implements Tokenizer {
  readonly estimated = false;
  constructor(
    readonly encoding: EncodingName,
    private readonly counter: BpeCounter,
  ) {}

  count(text: string): number {
    checkText(text);
    return text.length === 0 ? 0 : this.counter.count(text);
  }
}
