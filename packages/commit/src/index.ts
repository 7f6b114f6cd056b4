export type { CommitSummary, ContextCommit } from './context-commit.js';
