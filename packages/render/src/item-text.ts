import type { ContextItem } from '@ctxgit/rules';
import { escapeMarkers } from './escape-markers.js';
import { SUMMARY_PREFIX } from './markers.js';
import { rawItemText } from './raw-item-text.js';

/** The item's text as the model sees it when not rendered natively: escaped, `[Summary] `-prefixed for summaries. */
export function itemText(item: ContextItem): string {
  const text = escapeMarkers(rawItemText(item));
  return item.state === 'summary' ? `${SUMMARY_PREFIX} ${text}` : text;
}
