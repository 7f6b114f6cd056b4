export type { Json, Node, Role } from './node.js';
export type { NodeStore, SessionRecord, StoreWrite } from './node-store.js';
