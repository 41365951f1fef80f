#!/usr/bin/env node
import { parseOrders, watchNode } from './devnet-watchdog.js';

// The devnet node's watchdog, started detached by the service that owns the node (startWatchdog).
await watchNode(parseOrders(process.argv[2]));
