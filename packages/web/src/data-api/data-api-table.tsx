import type { Quota } from '@dex/sdk';
import type { ComponentChildren } from 'preact';
import { ErrorNotice } from '../errors/error-notice.js';
import type { Polled } from '../polling.js';
import { QuotaLine } from './quota-line.js';

/** What a data API page polls: its rows, and the page key's quota after the request. */
export interface DataApiRows<T> {
  readonly rows: readonly T[];
  readonly quota: Quota | null;
}

interface DataApiTableProps<T> {
  readonly polled: Polled<DataApiRows<T>>;
  /** "pools", "farms": what the rows are, for the error and the empty notice. */
  readonly what: string;
  readonly testId: string;
  readonly columns: readonly string[];
  readonly row: (item: T) => ComponentChildren;
}

/** A polled data API list as a table: its failure, its rows or an empty notice, and the key's quota. */
export function DataApiTable<T>({ polled, what, testId, columns, row }: DataApiTableProps<T>) {
  const data = polled.data;
  return (
    <>
      <ErrorNotice error={polled.error} context={`Loading the ${what}`} staleSince={polled.updatedAt} />
      {data === undefined ? null : data.rows.length === 0 ? (
        <p class="muted">No {what} yet.</p>
      ) : (
        <div class="table-scroll">
          <table class={what} data-testid={testId}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{data.rows.map(row)}</tbody>
          </table>
        </div>
      )}
      <QuotaLine quota={data?.quota} />
    </>
  );
}
