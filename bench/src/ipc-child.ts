/**
 * A bench contender in a node process of its own, asked one request at a time over IPC: a contender's garbage is then
 * collected in its own heap, not during another contender's timed step, while the steps still alternate in time.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

type Reply = { readonly id: number; readonly value: unknown } | { readonly id: number; readonly error: string } | { readonly ready: true };

/** The parent's handle on a child that runs `file` with `args` under tsx and answers with {@link serveRequests}. */
export class IpcChild<Request, Answer> {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, { resolve: (value: Answer) => void; reject: (e: Error) => void }>();
  readonly #ready: Promise<void>;
  #next = 0;

  constructor(file: string, args: readonly string[]) {
    this.#child = fork(file, [...args], { execArgv: ['--conditions=@ctxgit/source', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let ready = (): void => undefined;
    let failed = (_: Error): void => undefined;
    this.#ready = new Promise((resolve, reject) => ((ready = resolve), (failed = reject)));
    // a child that dies before the first request fails that request, not the process
    this.#ready.catch(() => undefined);
    this.#child.on('message', (m: Reply) => {
      if ('ready' in m) return ready();
      const w = this.#waiting.get(m.id);
      this.#waiting.delete(m.id);
      if ('error' in m) w?.reject(new Error(`${file}: ${m.error}`));
      else w?.resolve(m.value as Answer);
    });
    this.#child.on('exit', (code) => {
      const e = new Error(`${file} exited (${String(code)})`);
      failed(e);
      for (const w of this.#waiting.values()) w.reject(e);
      this.#waiting.clear();
    });
  }

  /** Sends one request once the child is ready; resolves with its answer. */
  async ask(request: Request): Promise<Answer> {
    await this.#ready;
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#child.send({ id, request });
    });
  }

  /** Ends the child (a child that already died is left alone: its error is the one to report). */
  stop(): void {
    if (this.#child.connected) this.#child.disconnect();
  }
}

/** The child's side: answers each request with `handle`, after saying it is ready; exits when the parent lets go. */
export function serveRequests<Request>(handle: (request: Request) => Promise<unknown>, close: () => void = () => undefined): void {
  process.on('message', (m: { id: number; request: Request }) => {
    handle(m.request).then(
      (value) => process.send?.({ id: m.id, value }),
      (e: unknown) => process.send?.({ id: m.id, error: e instanceof Error ? e.message : String(e) }),
    );
  });
  process.on('disconnect', () => {
    close();
    process.exit(0);
  });
  process.send?.({ ready: true });
}
