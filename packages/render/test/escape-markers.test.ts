import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeMarkers, unescapeMarkers } from '../src/index.js';
import { textArb } from './support/arbitraries.js';

const markerish = fc.oneof(textArb, fc.string(), fc.string({ unit: fc.constantFrom('\\', '[Summary]', '<<ctxgit:', '\n', '\r', '\u2028', 'x') }));

/** Sites where text would read as a ctxgit marker: `<<ctxgit:` not preceded by a backslash, `[Summary]` opening a line. */
const bareMarkers = (text: string): number =>
  (text.match(/(^|[^\\])<<ctxgit:/g) ?? []).length + (text.match(/(^|[\r\n\u2028\u2029])\[Summary\]/g) ?? []).length;

describe('escapeMarkers / unescapeMarkers', () => {
  it('escapes the documented markers with one backslash', () => {
    expect(escapeMarkers('[Summary] done')).toBe('\\[Summary] done');
    expect(escapeMarkers('a\n[Summary] b')).toBe('a\n\\[Summary] b');
    expect(escapeMarkers('mid [Summary] stays')).toBe('mid [Summary] stays');
    expect(escapeMarkers('x<<ctxgit:/attach>>')).toBe('x\\<<ctxgit:/attach>>');
    expect(escapeMarkers('\\<<ctxgit:begin>>')).toBe('\\\\<<ctxgit:begin>>');
    expect(escapeMarkers('plain text')).toBe('plain text');
  });

  it('is reversible for every string', () => {
    fc.assert(fc.property(markerish, (text) => {
      expect(unescapeMarkers(escapeMarkers(text))).toBe(text);
    }), { numRuns: 2000 });
  });

  it('leaves no bare marker in escaped text', () => {
    fc.assert(fc.property(markerish, (text) => {
      expect(bareMarkers(escapeMarkers(text))).toBe(0);
    }), { numRuns: 2000 });
  });

  it('keeps escaped text unambiguous when concatenated after a line break', () => {
    fc.assert(
      fc.property(markerish, markerish, (a, b) => {
        expect(bareMarkers(`${escapeMarkers(a)}\n${escapeMarkers(b)}`)).toBe(0);
      }),
      { numRuns: 1000 },
    );
  });
});
