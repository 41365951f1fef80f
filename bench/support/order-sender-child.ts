/**
 * The order sender of bench:ws, in a process of its own so that it does not share an event loop
 * (and a core's time slices) with the followers it is measured by. Started by order-sender.ts over
 * IPC: it answers `ready` once it listens; `save` carries the signed batches, which it saves `inFlight` at a time, and it answers
 * `saved` with the orders saved and the time it took, or `failed` on the first refusal.
 */
import { HttpClient, snippet } from './http-client.js';

/** One save request: its account's access token and the JSON body, already signed. */
export interface SenderBatch {
  readonly token: string;
  readonly body: string;
  readonly orders: number;
}

export type SenderParentMessage = {
  type: 'save';
  url: string;
  batches: SenderBatch[];
  inFlight: number;
  deadline: number;
};
export type SenderChildMessage =
  | { type: 'ready' }
  | { type: 'saved'; saved: number; startedAt: number; endedAt: number }
  | { type: 'failed'; message: string };

function tell(message: SenderChildMessage): void {
  process.send?.(message);
}

/** Saves every batch, `inFlight` requests at a time; a refused batch stops the run. */
async function saveAll(run: Extract<SenderParentMessage, { type: 'save' }>): Promise<void> {
  const client = new HttpClient(new URL(run.url), run.inFlight);
  const bodies = run.batches.map((batch) => Buffer.from(batch.body));
  let next = 0;
  let saved = 0;
  const startedAt = Date.now();
  const worker = async () => {
    for (let at = next++; at < run.batches.length; at = next++) {
      if (Date.now() > run.deadline) throw new Error('the timed phase ran past --time-limit');
      const batch = run.batches[at] as SenderBatch;
      const reply = await client.send('POST', '/orders/save', bodies[at] as Buffer, batch.token);
      if (reply.status !== 200) throw new Error(`POST /orders/save answered ${reply.status}: ${snippet(reply.body)}`);
      saved += batch.orders;
    }
  };
  try {
    await Promise.all(Array.from({ length: run.inFlight }, worker));
    tell({ type: 'saved', saved, startedAt, endedAt: Date.now() });
  } finally {
    client.close();
  }
}

process.on('message', (message: SenderParentMessage) => {
  if (message.type !== 'save') return;
  saveAll(message).catch((error: unknown) =>
    tell({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
tell({ type: 'ready' });
