import { describe, expect, it } from 'vitest';
import { refLayout } from '../src/index.js';

describe('refLayout', () => {
  it('names the refs of a session, encoding names that are not one ref component', () => {
    expect(refLayout.dag('chat-42')).toBe('refs/ctxgit/sessions/chat-42/dag');
    expect(refLayout.context('chat-42')).toBe('refs/ctxgit/sessions/chat-42/context');
    expect(refLayout.config('chat-42')).toBe('refs/ctxgit/sessions/chat-42/config');
    expect(refLayout.merged('chat-42')).toBe('refs/ctxgit/sessions/chat-42/merged');
    expect(refLayout.importMarker('chat-42')).toBe('refs/ctxgit/imports/chat-42');
    expect(refLayout.dag('a%b')).toBe('refs/ctxgit/sessions/a%25b/dag');
    expect(refLayout.sessionOf(refLayout.dag('a%b'), 'dag')).toBe('a%b');
    expect(refLayout.sessionOf('refs/heads/main', 'dag')).toBeUndefined();
    expect([refLayout.root, refLayout.sessions, refLayout.imports, refLayout.verified, refLayout.syncWork]).toEqual([
      'refs/ctxgit/',
      'refs/ctxgit/sessions/',
      'refs/ctxgit/imports/',
      'refs/ctxgit/verified',
      'refs/ctxgit-sync/',
    ]);
    expect(Object.isFrozen(refLayout)).toBe(true);
  });
});
