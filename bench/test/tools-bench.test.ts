import { describe, expect, it } from 'vitest';
import { createToolCatalogue } from '@ctxgit/rules';
import { providerSafeName, syntheticCatalogue } from '../src/tools/synthetic-catalogue.js';

describe('the synthetic tool catalogue of the tools bench', () => {
  const corpus = ['bash', 'book_reservation', 'RsaCtfTool.py', 'Edit', 'edit', 'TodoWrite', 'get_user_details'];

  it('is deterministic, 1,000 valid tools of about 400 KB, holding the corpus tools', () => {
    const a = syntheticCatalogue(corpus);
    expect(JSON.stringify(syntheticCatalogue([...corpus].reverse()))).toBe(JSON.stringify(a));
    expect(a).toHaveLength(1000);
    const bytes = JSON.stringify(a).length;
    expect(bytes).toBeGreaterThan(350_000);
    expect(bytes).toBeLessThan(450_000);
    const catalogue = createToolCatalogue(a); // validates names, uniqueness and schemas
    expect(catalogue.groupCount).toBeGreaterThan(50);
    for (const name of corpus) expect(catalogue.byName(providerSafeName(name))).toBeDefined();
    expect(catalogue.byName('RsaCtfTool_py')?.path).toBe('security/ctf/RsaCtfTool_py');
    expect(catalogue.byName('book_reservation')?.path).toBe('travel/airline/reservations/book_reservation');
    expect(syntheticCatalogue(corpus, 1000, 23)).not.toEqual(a);
  });
});
