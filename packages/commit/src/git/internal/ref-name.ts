import { InvalidNameError } from '../errors.js';
import type { NameKind } from '../errors.js';
import { LONE_SURROGATE } from './tree-codec.js';

const FORBIDDEN = /[\u0000-\u0020\u007f~^:?*[\\]/u;
const MAX_REF_BYTES = 1024;

function describeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : JSON.stringify(c);
}

/** The reason git's check-ref-format refuses one `/`-separated component, or undefined when it is fine. */
export function componentProblem(component: string): string | undefined {
  if (component.length === 0) return 'is empty';
  if (component.startsWith('.')) return "starts with '.'";
  if (component.endsWith('.')) return "ends with '.'";
  if (component.endsWith('.lock')) return "ends with '.lock'";
  if (component.includes('..')) return "contains '..'";
  if (component.includes('@{')) return "contains '@{'";
  if (component === '@') return "is '@'";
  const bad = FORBIDDEN.exec(component);
  if (bad !== null) return `contains ${describeChar(bad[0])} (control characters, space and ~^:?*[\\ are not allowed)`;
  if (LONE_SURROGATE.test(component)) return 'contains a lone surrogate';
  return undefined;
}

export function nameError(name: unknown, what: NameKind, reason: string): InvalidNameError {
  return new InvalidNameError(typeof name === 'string' ? name : `(a ${name === null ? 'null' : typeof name})`, what, reason);
}

/** Refuses a full ref name (`refs/...`) that git would refuse. */
export function assertRefName(ref: unknown): asserts ref is string {
  if (typeof ref !== 'string') throw nameError(ref, 'ref', 'not a string');
  if (!ref.startsWith('refs/')) throw nameError(ref, 'ref', "does not start with 'refs/'");
  if (Buffer.byteLength(ref, 'utf8') > MAX_REF_BYTES) throw nameError(ref, 'ref', `is longer than ${MAX_REF_BYTES} bytes`);
  for (const component of ref.split('/')) {
    const problem = componentProblem(component);
    if (problem !== undefined) throw nameError(ref, 'ref', `component ${JSON.stringify(component)} ${problem}`);
  }
}
