const DIGIT = /[0-9]/;
const LETTER = /[A-Za-z]/;
const JOINED = /[A-Za-z][_/.:-][A-Za-z0-9]/;

/** Identifier-shaped: letters with digits, or joined by `_ - / . :` (a code, a path, a key), not a plain word. */
export const idShaped = (s: string): boolean => (LETTER.test(s) && DIGIT.test(s)) || JOINED.test(s);
