import type { ExpiredOrderStore } from '../../ports/store/expired-order-ports.js';
import { inTransaction, type SqlDatabase } from './driver.js';

/** Expired orders still to be freed on the reactor, from the orders, their fills and their cancellations. */
export function sqliteExpiredOrderStore(db: SqlDatabase): ExpiredOrderStore {
  const statements = {
    unforgotten: db.prepare<{ id: number; deadline: number; signed_order: string; on_chain: number }>(
      `SELECT o.id, o.deadline, o.signed_order,
         EXISTS (SELECT 1 FROM order_events e WHERE e.order_id = o.id AND e.trade_id IS NOT NULL)
         OR EXISTS (SELECT 1 FROM order_cancellations c
                    WHERE c.order_id = o.id AND (c.tx_hash IS NOT NULL OR c.confirmed_tx_hash IS NOT NULL)) AS on_chain
       FROM orders o
       WHERE o.forgotten_block IS NULL AND o.deadline < ?
       ORDER BY o.deadline, o.id
       LIMIT ?`,
    ),
    markForgotten: db.prepare('UPDATE orders SET forgotten_block = ? WHERE id = ? AND forgotten_block IS NULL'),
  };
  return {
    async unforgotten(before, limit) {
      return statements.unforgotten.all(before, limit).map((row) => ({
        orderId: row.id,
        deadline: row.deadline,
        signedOrder: row.signed_order,
        onChain: row.on_chain !== 0,
      }));
    },
    async markForgotten(orderIds, block) {
      inTransaction(db, () => {
        for (const id of orderIds) statements.markForgotten.run(Number(block), id);
      });
    },
  };
}
