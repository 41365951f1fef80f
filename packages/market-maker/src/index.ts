export { initialMid, type ReferencePrices } from './initial-mid.js';
export type { BotLogger } from './logger.js';
export { MarketMaker, type MarketMakerStats } from './market-maker.js';
export type { MarketMakerOptions } from './options.js';
export { PriceModel, type PriceWalkOptions } from './price-model.js';
export { Prng } from './prng.js';
export { type Level, Quoter, type QuoterOptions } from './quoter.js';
export { planRequote, type Quote, type RequotePlan } from './requote.js';
export { TickGrid } from './tick-grid.js';
