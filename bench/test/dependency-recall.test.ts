import type { Node } from '@ctxgit/dag';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reusedIdentifiers, shapedReuses } from '../src/eval/dependency-recall.js';
import { distinctiveIdentifiers, identifierShaped } from '../src/eval/identifiers.js';

const node = (id: string, seq: number, role: Node['role'], output: string, extra: Partial<Node> = {}): Node => ({
  id,
  session: 's',
  seq,
  createdAt: 0,
  role,
  output,
  ...extra,
});

describe('distinctiveIdentifiers', () => {
  it('keeps paths and identifiers, lowercased, without trailing punctuation or duplicates', () => {
    expect(distinctiveIdentifiers('Open src/app.ts, then call getUser(42). Open SRC/app.ts.')).toEqual(['src/app.ts', 'getuser']);
  });

  it('drops short tokens, tokens without a letter, over-long tokens and common words', () => {
    expect(distinctiveIdentifiers(`about these 2024-05-20 12345678 abcd ${'x'.repeat(65)} --verbose file.py: ZFA04Y`)).toEqual([
      'verbose',
      'file.py',
      'zfa04y',
    ]);
  });

  it('returns only lowercase tokens of 5 to 64 characters that contain a letter', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        for (const id of distinctiveIdentifiers(text)) {
          expect(id).toBe(id.toLowerCase());
          expect(id.length).toBeGreaterThanOrEqual(5);
          expect(id.length).toBeLessThanOrEqual(64);
          expect(/[a-z]/.test(id)).toBe(true);
        }
      }),
    );
  });
});

describe('identifierShaped', () => {
  it('keeps tokens with a digit, _ . / :, an inner - or an inner capital, as written; not plain words', () => {
    const text = 'Open src/app.ts, call getUser(42), --verbose, re-run, mia_li_3668, ZFA04Y, 72:0x40. Installing previously Yielded.';
    expect([...identifierShaped(text)]).toEqual(['src/app.ts', 'getuser', '42', 're-run', 'mia_li_3668', 'zfa04y', '72:0x40']);
  });

  it('property: each is in the text, lowercased; without capitals in the text, each holds a digit or identifier punctuation', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        for (const id of identifierShaped(text)) {
          expect(text.toLowerCase()).toContain(id);
          if (!/[A-Z]/u.test(text)) expect(id).toMatch(/[0-9_./:]|.-/u);
        }
      }),
    );
  });
});

describe('reusedIdentifiers', () => {
  const history = [
    node('n0', 0, 'system', 'You are an airline agent for user_42x.'),
    node('n1', 1, 'user', 'My user id is mia_li_3668.'),
    node('n2', 2, 'assistant', 'Looking up.'),
    node('n3', 3, 'tool', '{"reservation_id": "ZFA04Y", "user": "mia_li_3668", "payment": "credit_card_4421486"}', {
      name: 'get_reservation',
      caller: 'n2',
    }),
  ];

  it('counts identifiers found in an earlier tool result and in no system or user text, in the order the step writes them', () => {
    const step = node('n4', 4, 'assistant', 'Reservation ZFA04Y was paid with credit_card_4421486 for mia_li_3668.');
    const call = node('n5', 5, 'tool', 'ok', { name: 'cancel', caller: 'n4', input: { reservation_id: 'ZFA04Y' } });
    expect(reusedIdentifiers(history, step, [call])).toEqual(['zfa04y', 'credit_card_4421486', 'reservation_id']);
  });

  it('shapedReuses keeps the reuses the step writes shaped like identifiers, not plain words', () => {
    const tool = node('n3', 3, 'tool', 'Installing previously downloaded ZFA04Y into getUser', { name: 'pip', caller: 'n2' });
    const step = node('n4', 4, 'assistant', 'Installing went fine; previously ZFA04Y, now getUser.');
    const reused = reusedIdentifiers([...history.slice(0, 3), tool], step, []);
    expect(reused).toEqual(['installing', 'previously', 'zfa04y', 'getuser']);
    expect(shapedReuses(reused, step, [])).toEqual(['zfa04y', 'getuser']);
  });

  it('is empty when nothing comes from a tool', () => {
    expect(reusedIdentifiers(history.slice(0, 2), node('n2', 2, 'assistant', 'Hello mia_li_3668, checking ZFA04Y.'), [])).toEqual([]);
  });
});
