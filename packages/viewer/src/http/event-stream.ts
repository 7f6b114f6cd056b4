import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './headers.js';

/** What `Viewer.publish` sends to the open pages: a turn landed in a session. */
export interface TurnEvent {
  readonly session: string;
  /** The commit the turn wrote, when known. */
  readonly commit?: string;
}

/** The open server-sent-event streams of one viewer. */
export class EventStream {
  readonly #clients = new Set<ServerResponse>();

  /** Keeps `res` open as an event stream until the client leaves or {@link EventStream.close}. */
  open(res: ServerResponse): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': ctxgit viewer events\n\n');
    this.#clients.add(res);
    res.on('close', () => this.#clients.delete(res));
  }

  /** Sends `event: turn` with the event as JSON to every open stream. */
  publish(event: TurnEvent): void {
    const text = `event: turn\ndata: ${JSON.stringify(event)}\n\n`;
    for (const res of this.#clients) res.write(text);
  }

  /** Ends every stream. */
  close(): void {
    for (const res of this.#clients) res.end();
    this.#clients.clear();
  }
}
