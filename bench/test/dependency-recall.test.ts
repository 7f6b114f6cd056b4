import type { Node } from '@ctxgit/dag';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reusedIdentifiers } from '../src/eval/dependency-recall.js';
import { distinctiveIdentifiers } from '../src/eval/identifiers.js';

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

  it('is empty when nothing comes from a tool', () => {
    expect(reusedIdentifiers(history.slice(0, 2), node('n2', 2, 'assistant', 'Hello mia_li_3668, checking ZFA04Y.'), [])).toEqual([]);
  });
});
