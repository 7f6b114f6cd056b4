import type { Json, Role } from '../node.js';

/** A tool call found in a chat message, with its result once seen. */
export interface ChatCall {
  readonly name: string;
  readonly input: Json;
  readonly source: { [key: string]: Json };
  result?: { readonly output: string; readonly source: { [key: string]: Json }; readonly createdAt?: number };
}

/** A conversation message (not a tool result) found in pass 1. */
export interface ChatUnit {
  readonly role: Role;
  readonly name?: string;
  readonly output: string;
  readonly source: { [key: string]: Json };
  readonly calls: ChatCall[];
  readonly createdAt?: number;
}
