import { badParam } from '../errors.js';

const OID = /^[0-9a-f]{40}$/;

/** Reads and checks the query parameters of one request. */
export class Query {
  readonly #params: URLSearchParams;

  constructor(params: URLSearchParams) {
    this.#params = params;
  }

  /** A string parameter, or undefined when absent. */
  text(name: string): string | undefined {
    return this.#params.get(name) ?? undefined;
  }

  /** A git object id (40 lowercase hex digits), or undefined when absent. */
  oid(name: string): string | undefined {
    const v = this.#params.get(name);
    if (v === null) return undefined;
    if (!OID.test(v)) throw badParam(name, v, 'a commit id of 40 lowercase hex digits');
    return v;
  }

  /** A required git object id. */
  requiredOid(name: string): string {
    const v = this.oid(name);
    if (v === undefined) throw badParam(name, null, 'a commit id of 40 lowercase hex digits');
    return v;
  }

  /** A required non-empty string. */
  required(name: string): string {
    const v = this.#params.get(name);
    if (v === null || v === '') throw badParam(name, v, 'a non-empty string');
    return v;
  }

  /** An integer in [1, max], `fallback` when absent. */
  int(name: string, fallback: number, max: number): number {
    const v = this.#params.get(name);
    if (v === null) return fallback;
    const n = /^[0-9]+$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > max) throw badParam(name, v, `an integer from 1 to ${max}`);
    return n;
  }
}
