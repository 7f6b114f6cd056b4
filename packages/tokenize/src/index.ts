export type { Tokenizer } from './tokenizer.js';
export { ENCODING_NAMES, TOKENIZER_ENCODINGS } from './encoding.js';
export type { EncodingName, TokenizerEncoding } from './encoding.js';
export { MAX_TEXT_LENGTH } from './check-text.js';
export {
  EncodingNotLoadedError,
  ImageSizeUnknownError,
  InvalidBudgetError,
  InvalidModelError,
  InvalidOptionError,
  InvalidRequestError,
  InvalidUsageError,
  LoneSurrogateError,
  NotAStringError,
  TextTooLongError,
  TokenizeError,
  UnknownEncodingError,
  UnknownModelError,
} from './errors.js';
export { loadTokenizer } from './load-tokenizer.js';
export type { LoadTokenizerOptions, RankData } from './load-tokenizer.js';
export { createTokenizerLoader } from './tokenizer-loader.js';
export type { TokenizerLoader } from './tokenizer-loader.js';
export { estimateTokenizer } from './estimate-tokenizer.js';
export { createMemoTokenizer } from './memo-tokenizer.js';
export type { MemoStats, MemoTokenizer, MemoTokenizerOptions } from './memo-tokenizer.js';
export { DEFAULT_MODELS } from './models.js';
export type { CachePrices, ModelInfo, ModelTable, Provider } from './models.js';
export { resolveModel } from './resolve-model.js';
export type { ResolveModelOptions, ResolvedModel } from './resolve-model.js';
export { imageTokens } from './image-tokens.js';
export type { ImageSize } from './image-tokens.js';
export { countRequest } from './count-request.js';
export { messageOverhead } from './message-overhead.js';
export type { MessageOverhead } from './message-overhead.js';
export type { CountRequestOptions, RequestCount, RequestFormat } from './request-count.js';
export { createBudget } from './create-budget.js';
export type { Budget, BudgetOptions } from './create-budget.js';
export { createOccupancyState } from './occupancy-state.js';
export type { Measurement, OccupancyState, OccupancyStateOptions } from './occupancy-state.js';
export { recordUsage } from './record-usage.js';
export type { Usage } from './record-usage.js';
export { occupancy } from './occupancy.js';
export type { Occupancy, OccupancyQuery } from './occupancy.js';
