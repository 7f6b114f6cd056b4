import { CtxgitError } from '@ctxgit/errors';

/**
 * Base class (a {@link CtxgitError}) of every error thrown by `@ctxgit/tokenize`.
 *
 * @remarks
 * `code` is stable across versions (match on it, not on `message`); `data` carries the offending values.
 */
export class TokenizeError extends CtxgitError<Readonly<Record<string, unknown>>> {
  /**
   * @param code - stable error code
   * @param message - what was wrong and what to do
   * @param data - structured details
   */
  constructor(code: string, message: string, data: Readonly<Record<string, unknown>>) {
    super(code, message, data);
  }
}

/** Text to count was not a string (code `E_TOKENIZE_NOT_A_STRING`; `data.type` is its `typeof`). */
export class NotAStringError extends TokenizeError {
  /** @param value - the offending value */
  constructor(value: unknown) {
    const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    super('E_TOKENIZE_NOT_A_STRING', `Expected a string to count, got ${type}. Pass text as a string.`, { type });
  }
}

/** Text holds an unpaired UTF-16 surrogate (code `E_TOKENIZE_LONE_SURROGATE`; `data.index` is its position in code units). */
export class LoneSurrogateError extends TokenizeError {
  /**
   * @param index - UTF-16 code unit index of the lone surrogate
   * @param codeUnit - the code unit found there
   */
  constructor(index: number, codeUnit: number) {
    const hex = codeUnit.toString(16).toUpperCase().padStart(4, '0');
    super(
      'E_TOKENIZE_LONE_SURROGATE',
      `Text has a lone surrogate U+${hex} at index ${index}; it is not valid Unicode. Repair the text (e.g. String.prototype.toWellFormed) before counting.`,
      { index, codeUnit },
    );
  }
}

/** Text is longer than the documented limit (code `E_TOKENIZE_TEXT_TOO_LONG`; `data.length`, `data.limit` in UTF-16 code units). */
export class TextTooLongError extends TokenizeError {
  /**
   * @param length - length of the text in UTF-16 code units
   * @param limit - the limit in UTF-16 code units
   */
  constructor(length: number, limit: number) {
    super(
      'E_TOKENIZE_TEXT_TOO_LONG',
      `Text is ${length} UTF-16 code units long, over the limit of ${limit}. Split it into smaller pieces and count each.`,
      { length, limit },
    );
  }
}

/** Encoding name is not one this package knows (code `E_TOKENIZE_UNKNOWN_ENCODING`; `data.known` lists the known names). */
export class UnknownEncodingError extends TokenizeError {
  /**
   * @param encoding - the name asked for
   * @param known - the names that are known
   */
  constructor(encoding: unknown, known: readonly string[]) {
    super(
      'E_TOKENIZE_UNKNOWN_ENCODING',
      `Unknown encoding ${JSON.stringify(String(encoding))}; known encodings: ${known.join(', ')}.`,
      { encoding: String(encoding), known: [...known] },
    );
  }
}

/** A rank-based encoding was asked of a {@link TokenizerLoader} synchronously before it loaded it (code `E_TOKENIZE_NOT_LOADED`). */
export class EncodingNotLoadedError extends TokenizeError {
  /** @param encoding - the encoding name */
  constructor(encoding: string) {
    super(
      'E_TOKENIZE_NOT_LOADED',
      `Encoding ${encoding} is not loaded yet. Call \`await loader.load('${encoding}')\` once before loader.get('${encoding}').`,
      { encoding },
    );
  }
}

/** Model id is not in the table and no window was given (code `E_TOKENIZE_UNKNOWN_MODEL`). */
export class UnknownModelError extends TokenizeError {
  /**
   * @param id - the model id asked for
   * @param known - ids in the table
   */
  constructor(id: string, known: readonly string[]) {
    super(
      'E_TOKENIZE_UNKNOWN_MODEL',
      `Unknown model ${JSON.stringify(id)}. Use a "provider:model" id from the table (${known.length} known, e.g. ${known.slice(0, 3).join(', ')}), add it through \`models\`, or pass \`window\` explicitly.`,
      { id, known: [...known] },
    );
  }
}

/** A model id, model table entry or override is malformed (code `E_TOKENIZE_INVALID_MODEL`; `data.field` names it). */
export class InvalidModelError extends TokenizeError {
  /**
   * @param field - the offending field, e.g. `window` or `id`
   * @param value - its value
   * @param expected - what was expected
   */
  constructor(field: string, value: unknown, expected: string) {
    super('E_TOKENIZE_INVALID_MODEL', `Invalid model ${field}: ${describe(value)}; expected ${expected}.`, { field, value });
  }
}

/** A budget was impossible or malformed (code `E_TOKENIZE_INVALID_BUDGET`; `data.field` names the field at fault). */
export class InvalidBudgetError extends TokenizeError {
  /**
   * @param field - the field at fault
   * @param value - its value
   * @param reason - what is wrong and what was expected
   */
  constructor(field: string, value: unknown, reason: string) {
    super('E_TOKENIZE_INVALID_BUDGET', `Invalid budget ${field} = ${describe(value)}: ${reason}. Budgets are never clamped; fix the value.`, {
      field,
      value,
    });
  }
}

/** A request body could not be counted (code `E_TOKENIZE_INVALID_REQUEST`; `data.path` points at the offending part). */
export class InvalidRequestError extends TokenizeError {
  /**
   * @param path - JSON path of the offending part, e.g. `messages[2].content[0]`
   * @param reason - what is wrong
   */
  constructor(path: string, reason: string) {
    super('E_TOKENIZE_INVALID_REQUEST', `Cannot count request at ${path}: ${reason}.`, { path });
  }
}

/** An image has no known width and height, so its tokens cannot be counted (code `E_TOKENIZE_IMAGE_SIZE_UNKNOWN`). */
export class ImageSizeUnknownError extends TokenizeError {
  /** @param path - JSON path of the image part */
  constructor(path: string) {
    super(
      'E_TOKENIZE_IMAGE_SIZE_UNKNOWN',
      `Image at ${path} has no known size. Give \`width\` and \`height\` (pixels) on the part, or pass \`imageSize\` in the count options.`,
      { path },
    );
  }
}

/** A usage or occupancy argument was malformed (code `E_TOKENIZE_INVALID_USAGE`; `data.field` names it). */
export class InvalidUsageError extends TokenizeError {
  /**
   * @param field - the offending field
   * @param value - its value
   * @param expected - what was expected
   */
  constructor(field: string, value: unknown, expected: string) {
    super('E_TOKENIZE_INVALID_USAGE', `Invalid ${field}: ${describe(value)}; expected ${expected}.`, { field, value });
  }
}

/** A memo option was malformed (code `E_TOKENIZE_INVALID_OPTION`; `data.field` names it). */
export class InvalidOptionError extends TokenizeError {
  /**
   * @param field - the offending option
   * @param value - its value
   * @param expected - what was expected
   */
  constructor(field: string, value: unknown, expected: string) {
    super('E_TOKENIZE_INVALID_OPTION', `Invalid option ${field}: ${describe(value)}; expected ${expected}.`, { field, value });
  }
}

function describe(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  return typeof value;
}
