export type { Json, Node, Role } from './node.js';
export type { NodeStore, SessionRecord, StoreWrite } from './node-store.js';
export type { NodeInput } from './node-input.js';
export type { NodeEdit } from './node-edit.js';
export type { SiblingPosition } from './sibling-position.js';
export type { AttachSource } from './attach-source.js';
export type { Clock, DagOptions, IdGenerator, NodeMetadata } from './options.js';
export type { ForkOptions } from './fork-session.js';
export type { AttachOptions } from './append-attach.js';
export type { WrittenTranscript } from './write-transcript.js';
export type { ImportOptions, MalformedItem, Transcript, TranscriptEntry, TranscriptFormat } from './transcript.js';
export type { DagErrorData, NodeReference, TranscriptLocation } from './errors.js';
export {
  AgentRunningError,
  BothPredecessorAndCallerError,
  CycleError,
  DagConflictError,
  DagError,
  DuplicateIdError,
  InvalidArgumentError,
  InvalidEdgeError,
  InvalidIdError,
  InvalidSessionNameError,
  MalformedTranscriptError,
  MissingNodeError,
  NotJsonError,
  FieldTooLargeError,
  OutputTooLargeError,
  SessionExistsError,
  SessionNotFoundError,
  UnknownRoleError,
} from './errors.js';
export { DEFAULT_MAX_OUTPUT_BYTES, MAX_FIELD_BYTES, MAX_NAME_LENGTH, MAX_OUTPUT_BYTES_LIMIT, MAX_READS } from './options.js';
export { MAX_SESSION_NAME_LENGTH, validateSessionName } from './validate-session-name.js';
export { validateNodeId } from './validate-node-id.js';
export { MAX_JSON_DEPTH, copyJson, validateJson } from './validate-json.js';
export { defaultNodeId } from './default-node-id.js';
export { canonicalJson } from './canonical-json.js';
export type { CanonicalJsonOptions } from './canonical-json.js';
export { MemoryNodeStore } from './memory-node-store.js';
export { createSession } from './create-session.js';
export { appendNode } from './append-node.js';
export { appendNodes } from './append-nodes.js';
export type { BatchNodeInput } from './append-nodes.js';
export { retryNode } from './retry-node.js';
export { editNode } from './edit-node.js';
export { checkout } from './checkout.js';
export { siblingIndex } from './sibling-index.js';
export { forkSession } from './fork-session.js';
export { appendAttach } from './append-attach.js';
export { setAgentRunning } from './set-agent-running.js';
export { branchView } from './branch-view.js';
export { writeTranscript } from './write-transcript.js';
export { entryInput } from './entry-input.js';
export type { EntryInput } from './entry-input.js';
export { importOpenAIChat } from './import-openai-chat.js';
export { importSweAgentTraj } from './import-swe-agent-traj.js';
export { importClaudeCode } from './import-claude-code.js';
