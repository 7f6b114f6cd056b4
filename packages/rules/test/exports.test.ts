import { expect, it } from 'vitest';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
    'CLEARED_PLACEHOLDER',
    'DEFAULT_PROTECTED_TOOLS',
    'RulesError',
    'RulesInputError',
    'RulesInvariantError',
    'RulesOverBudgetError',
    'agingRule',
    'analyzeSpan',
    'capRule',
    'defaultBrief',
    'defaultRules',
    'distinctiveTokens',
    'foldRule',
    'foldedOriginals',
    'idleRule',
    'isFailedResult',
    'itemFromNode',
    'pipelineVersion',
    'runPipeline',
    'runPipelineAsync',
  ]);
});
