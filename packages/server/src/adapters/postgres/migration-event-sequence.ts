import type { PostgresMigration } from './schema.js';

/** Version 4 (SQLite version 14): each order event's place among its order's events. */
export const EVENT_SEQUENCE_MIGRATION: PostgresMigration = {
  version: 4,
  name: "each order event's place among its order's events (SQLite version 14)",
  sql: `
      -- Counts the events of one order from 1 (CREATED is 1), as the live user stream's \`sequence\`.
      ALTER TABLE order_events ADD COLUMN sequence BIGINT NOT NULL DEFAULT 0;
      UPDATE order_events SET sequence = (
        SELECT count(*) FROM order_events AS earlier
        WHERE earlier.order_id = order_events.order_id AND earlier.id <= order_events.id
      );
    `,
};
