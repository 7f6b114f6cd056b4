import { expect, it } from 'vitest';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
    'DEFAULT_MODELS',
    'ENCODING_NAMES',
    'EncodingNotLoadedError',
    'ImageSizeUnknownError',
    'InvalidBudgetError',
    'InvalidModelError',
    'InvalidOptionError',
    'InvalidRequestError',
    'InvalidUsageError',
    'LoneSurrogateError',
    'MAX_TEXT_LENGTH',
    'NotAStringError',
    'TOKENIZER_ENCODINGS',
    'TextTooLongError',
    'TokenizeError',
    'UnknownEncodingError',
    'UnknownModelError',
    'countRequest',
    'createBudget',
    'createMemoTokenizer',
    'createOccupancyState',
    'estimateTokenizer',
    'getTokenizer',
    'imageTokens',
    'loadTokenizer',
    'occupancy',
    'recordUsage',
    'resolveModel',
  ]);
});
