/** Unix ms as the ledger writes consensus times (the data API's farm `timestamp`): "seconds.nanoseconds". */
export function ledgerTimestamp(ms: number): string {
  const seconds = Math.floor(ms / 1_000);
  return `${seconds}.${String(ms - seconds * 1_000).padStart(3, '0')}000000`;
}
