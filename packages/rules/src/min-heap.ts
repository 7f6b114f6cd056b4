/** Binary min-heap of (priority, value) pairs over parallel arrays; ties pop the smaller value first. */
export class MinHeap {
  private readonly prio: number[] = [];
  private readonly vals: number[] = [];

  get size(): number {
    return this.vals.length;
  }

  push(priority: number, value: number): void {
    this.prio.push(priority);
    this.vals.push(value);
    let i = this.vals.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  /** Removes and returns the value with the smallest priority; `undefined` when empty. */
  pop(): { priority: number; value: number } | undefined {
    const n = this.vals.length;
    if (n === 0) return undefined;
    const top = { priority: this.prio[0] as number, value: this.vals[0] as number };
    const lastP = this.prio.pop() as number;
    const lastV = this.vals.pop() as number;
    if (n > 1) {
      this.prio[0] = lastP;
      this.vals[0] = lastV;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < n - 1 && this.less(l, m)) m = l;
        if (r < n - 1 && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const pa = this.prio[a] as number;
    const pb = this.prio[b] as number;
    return pa < pb || (pa === pb && (this.vals[a] as number) < (this.vals[b] as number));
  }

  private swap(a: number, b: number): void {
    const p = this.prio[a] as number;
    this.prio[a] = this.prio[b] as number;
    this.prio[b] = p;
    const v = this.vals[a] as number;
    this.vals[a] = this.vals[b] as number;
    this.vals[b] = v;
  }
}
