import type { JSX } from 'preact';
import type { Loaded } from '../api.js';
import { Text } from '../text.js';

/** What a view shows while its data loads, or when the request failed. */
export function Status({ loaded }: { readonly loaded: Loaded<unknown> }): JSX.Element {
  if (loaded.state === 'error') {
    return (
      <p class="error" role="alert">
        <Text value={loaded.message} />
      </p>
    );
  }
  return <p class="muted loading">Loading…</p>;
}
