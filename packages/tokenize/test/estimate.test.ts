import { get_encoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { estimateTokenizer } from '../src/index.js';
import { loadCorpusTexts } from './corpus.js';

describe('estimateTokenizer', () => {
  it('is marked estimated and is deterministic', () => {
    expect(estimateTokenizer).toMatchObject({ encoding: 'estimate', estimated: true });
    expect(estimateTokenizer.count('hello world')).toBe(2);
    expect(estimateTokenizer.count('日本語')).toBe(3);
  });

  it('stays within its documented error against o200k on the corpus', () => {
    const oracle = get_encoding('o200k_base');
    let exact = 0;
    let estimate = 0;
    const errors: number[] = [];
    for (const { text } of loadCorpusTexts()) {
      const y = oracle.encode(text, [], []).length;
      const e = estimateTokenizer.count(text);
      exact += y;
      estimate += e;
      if (y >= 20) errors.push(Math.abs(e - y) / y);
    }
    oracle.free();
    errors.sort((a, b) => a - b);
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.005);
    expect(errors[Math.floor(errors.length / 2)]).toBeLessThan(0.035);
    expect(errors[Math.floor(errors.length * 0.95)]).toBeLessThan(0.17);
  });
});
