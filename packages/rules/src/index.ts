export type { Block, ContextItem, ItemState } from './item.js';
export { RulesError, RulesFoldedNeededError, RulesInputError, RulesInvariantError, RulesOverBudgetError } from './errors.js';
export type { InvariantKind, RefusedRequest } from './errors.js';
export type { Band, Rule, RuleContext } from './rule.js';
export { DEFAULT_PROTECTED_TOOLS } from './options.js';
export { SUMMARY_MARKER } from './summary-marker.js';
export type { RulesOptions } from './options.js';
export type {
  AsyncPipelineContext,
  BandOptions,
  PipelineContext,
  PipelineInput,
  PipelineReport,
  PipelineResult,
  RequestFrame,
  RuleReport,
  SummarizeInput,
  Summarizer,
} from './pipeline.js';
export type { AnalyzeSpanOptions, ContinuationView, SpanAnalysis, SpanEdge, SpanEdgeKind } from './span-analysis.js';
export { itemFromNode } from './item-from-node.js';
export { runPipeline } from './run-pipeline.js';
export { RulesCache } from './rules-cache.js';
export { runPipelineAsync } from './run-pipeline-async.js';
export { defaultRules } from './default-rules.js';
export { pipelineVersion } from './pipeline-version.js';
export { capRule } from './rules/cap-rule.js';
export { agingRule } from './rules/aging-rule.js';
export { idleRule, CLEARED_PLACEHOLDER } from './rules/idle-rule.js';
export { foldRule } from './rules/fold-rule.js';
export { defaultBrief } from './default-brief.js';
export { foldedOriginals } from './folded-originals.js';
export { foldInto } from './fold-into.js';
export type { FoldedLookup } from './folded-originals.js';
export { analyzeSpan } from './analyze-span.js';
export { distinctiveTokens } from './distinctive-tokens.js';
export { isFailedResult } from './is-failed-result.js';
export type { AdvertisedTool, CatalogueTool, JsonSchema } from './tools/catalogue-tool.js';
export { createToolCatalogue, MAX_CATALOGUE_TOOLS, OPEN_TOOLS, ToolCatalogue } from './tools/tool-catalogue.js';
export type { ToolGroup } from './tools/tool-catalogue.js';
export { ToolCatalogueError } from './tools/tool-catalogue-error.js';
export type { ToolProblem } from './tools/tool-catalogue-error.js';
export { resolveToolViewOptions } from './tools/tool-view-options.js';
export type { ResolvedToolViewOptions, ToolViewOptions } from './tools/tool-view-options.js';
export { advertisedPaths, advertisedTools, nextToolView } from './tools/tool-view.js';
export type { ToolRound, ToolView, ToolViewEntry } from './tools/tool-view.js';
export { resolveToolCall } from './tools/resolve-tool-call.js';
export type { ToolCallResolution } from './tools/resolve-tool-call.js';
export { toolRoundOf } from './tools/tool-round.js';
