/**
 * Orders by deadline: a binary min-heap of (deadline, order id). Entries of orders that left the
 * book earlier stay until they surface and are skipped then, which keeps removal O(1).
 */
export class ExpiryQueue {
  private readonly deadlines: number[] = [];
  private readonly ids: number[] = [];

  get size(): number {
    return this.ids.length;
  }

  push(deadline: number, id: number): void {
    this.deadlines.push(deadline);
    this.ids.push(id);
    this.up(this.ids.length - 1);
  }

  /** Removes and returns the ids whose deadline is at or before `now`, earliest first. */
  popDue(now: number): number[] {
    const due: number[] = [];
    while (this.ids.length > 0 && (this.deadlines[0] as number) <= now) {
      due.push(this.ids[0] as number);
      const lastDeadline = this.deadlines.pop() as number;
      const lastId = this.ids.pop() as number;
      if (this.ids.length > 0) {
        this.deadlines[0] = lastDeadline;
        this.ids[0] = lastId;
        this.down(0);
      }
    }
    return due;
  }

  private less(a: number, b: number): boolean {
    const da = this.deadlines[a] as number;
    const db = this.deadlines[b] as number;
    return da < db || (da === db && (this.ids[a] as number) < (this.ids[b] as number));
  }

  private swap(a: number, b: number): void {
    const deadline = this.deadlines[a] as number;
    this.deadlines[a] = this.deadlines[b] as number;
    this.deadlines[b] = deadline;
    const id = this.ids[a] as number;
    this.ids[a] = this.ids[b] as number;
    this.ids[b] = id;
  }

  private up(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.less(child, parent)) return;
      this.swap(child, parent);
      child = parent;
    }
  }

  private down(index: number): void {
    const size = this.ids.length;
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < size && this.less(left, smallest)) smallest = left;
      if (right < size && this.less(right, smallest)) smallest = right;
      if (smallest === parent) return;
      this.swap(parent, smallest);
      parent = smallest;
    }
  }
}
