// render depends on the rules' types only (DESIGN.md), so it spells the summary marker itself; the rules count the
// marker's tokens in a request frame, so both spellings must stay one string.
import { SUMMARY_MARKER } from '@ctxgit/rules';
import { expect, it } from 'vitest';
import { SUMMARY_PREFIX } from '../src/index.js';

it('writes the summary marker the rules count', () => {
  expect(`${SUMMARY_PREFIX} `).toBe(SUMMARY_MARKER);
});
