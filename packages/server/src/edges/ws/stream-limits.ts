/** Bounds of the WebSocket streams (/ws/depth, /ws/user-events). */
export interface StreamLimits {
  /** Largest frame a client may send; a larger one closes its connection with 1009. */
  readonly maxPayloadBytes: number;
  readonly maxBooksPerConnection: number;
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
  /** Most unsent bytes one connection may hold; a client that falls further behind is disconnected. */
  readonly sendBufferBytes: number;
  /** Interval of server pings; a client that has not answered the previous one by then is closed. */
  readonly heartbeatMs: number;
}
