/** Receipts of timestamped messages while a benchmark's clock runs: how many, the last, and each one's latency. */
export class LatencyRecorder {
  measuring = false;
  count = 0;
  lastReceipt = 0;
  private latencies = new Float64Array(1 << 16);

  /** One message sent at `sentAt` (unix ms, the sender's clock on this machine) arrived now. */
  record(sentAt: number): void {
    if (!this.measuring) return;
    const now = Date.now();
    if (this.count === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2);
      grown.set(this.latencies);
      this.latencies = grown;
    }
    this.latencies[this.count++] = now - sentAt;
    this.lastReceipt = now;
  }

  sortedLatencies(): Float64Array {
    return this.latencies.slice(0, this.count).sort();
  }
}
