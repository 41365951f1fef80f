/** Unix ms as the ISO-8601 UTC text the live API sends for `createdAt`/`updatedAt` ("2026-11-22T12:00:00.000Z"). */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
