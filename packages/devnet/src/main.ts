#!/usr/bin/env node
import { serve } from '@dex/server';
import { startLiveDevnet } from './live-devnet.js';

// `npm start`: the service and, unless MARKET_MAKER says no, the market-making bot beside it.
serve((server, config, logger) => (config.marketMaker === null ? null : startLiveDevnet(server, config.marketMaker, logger)));
