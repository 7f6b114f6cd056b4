export type { Block, ContextItem, ItemState } from './item.js';
