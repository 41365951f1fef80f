import type { StreamConnection } from './stream-connection.js';

/** Connections grouped by a key (a book, an account); a key whose last connection leaves is dropped. */
export class ConnectionIndex<K> {
  private readonly groups = new Map<K, Set<StreamConnection>>();

  add(key: K, connection: StreamConnection): void {
    let group = this.groups.get(key);
    if (group === undefined) {
      group = new Set();
      this.groups.set(key, group);
    }
    group.add(connection);
  }

  remove(key: K, connection: StreamConnection): void {
    const group = this.groups.get(key);
    if (group === undefined) return;
    group.delete(connection);
    if (group.size === 0) this.groups.delete(key);
  }

  get(key: K): ReadonlySet<StreamConnection> | undefined {
    return this.groups.get(key);
  }
}
