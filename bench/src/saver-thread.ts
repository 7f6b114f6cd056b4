import type { BaseCheckpointSaver, Checkpoint } from '@langchain/langgraph-checkpoint';

/** A LangGraph thread whose state is the message list: one `put` per turn, each checkpoint the child of the last. */
export class Thread {
  #parent: string | undefined;
  #step = 0;
  constructor(
    readonly saver: BaseCheckpointSaver,
    readonly id: string,
  ) {}

  async put(messages: readonly unknown[]): Promise<void> {
    const step = ++this.#step;
    const checkpoint: Checkpoint = {
      v: 4,
      id: String(step).padStart(12, '0'),
      ts: new Date(1_700_000_000_000 + step * 1000).toISOString(),
      channel_values: { messages },
      channel_versions: { messages: step },
      versions_seen: {},
    };
    const config = { configurable: { thread_id: this.id, checkpoint_ns: '', ...(this.#parent === undefined ? {} : { checkpoint_id: this.#parent }) } };
    await this.saver.put(config, checkpoint, { source: 'loop', step, parents: {} }, { messages: step });
    this.#parent = checkpoint.id;
  }
}
