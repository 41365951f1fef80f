import type { ExpiredOrderStore } from '../../ports/store/expired-order-ports.js';
import { type SqlClient, sql } from './sql-client.js';

const statements = {
  unforgotten: sql<{ id: number; deadline: number; signed_order: string; on_chain: number }>(
    `SELECT o.id, o.deadline, o.signed_order,
       CASE WHEN EXISTS (SELECT 1 FROM order_events e WHERE e.order_id = o.id AND e.trade_id IS NOT NULL)
         OR EXISTS (SELECT 1 FROM order_cancellations c
                    WHERE c.order_id = o.id AND (c.tx_hash IS NOT NULL OR c.confirmed_tx_hash IS NOT NULL))
       THEN 1 ELSE 0 END AS on_chain
     FROM orders o
     WHERE o.forgotten_block IS NULL AND o.deadline < ?
     ORDER BY o.deadline, o.id
     LIMIT ?`,
  ),
  markForgotten: sql('UPDATE orders SET forgotten_block = ? WHERE id = ? AND forgotten_block IS NULL'),
};

/** Expired orders still to be freed on the reactor, from the orders, their fills and their cancellations. */
export function sqlExpiredOrderStore(db: SqlClient): ExpiredOrderStore {
  return {
    async unforgotten(before, limit) {
      return (await db.all(statements.unforgotten, before, limit)).map((row) => ({
        orderId: row.id,
        deadline: row.deadline,
        signedOrder: row.signed_order,
        onChain: row.on_chain !== 0,
      }));
    },
    async markForgotten(orderIds, block) {
      await db.transaction(async (tx) => {
        await Promise.all(orderIds.map((id) => tx.run(statements.markForgotten, Number(block), id)));
      });
    },
  };
}
