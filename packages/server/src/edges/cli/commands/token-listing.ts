import type { TokenListingChange } from '../../../domain/markets/market-records.js';
import { UsageError, type Values } from '../operator-options.js';

const TWITTER_HANDLE = /^@?([A-Za-z0-9_]{1,15})$/;

function httpsUrl(text: string | null, name: string): string | null {
  if (text === null) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--${name} must be a URL`);
  }
  if (url.protocol !== 'https:') throw new UsageError(`--${name} must be an https URL`);
  return url.toString();
}

/** A text option of `token update`: undefined when absent, null when given empty (clear it). */
function textChange(values: Values, name: keyof Values): string | null | undefined {
  const value = values[name];
  if (typeof value !== 'string') return undefined;
  return value === '' ? null : value;
}

/**
 * The listing fields a command line names, checked; absent ones stay out of the result. On
 * `token add` every field ends up set (see addToken); on `token update` only the named ones change.
 */
export function listingChange(values: Values): TokenListingChange {
  const change: { -readonly [K in keyof TokenListingChange]: TokenListingChange[K] } = {};
  const icon = textChange(values, 'icon');
  if (icon !== undefined) change.icon = httpsUrl(icon, 'icon');
  const description = textChange(values, 'description');
  if (description !== undefined) {
    if (description !== null && description.length > 1_000) throw new UsageError('--description must be at most 1000 characters');
    change.description = description;
  }
  const website = textChange(values, 'website');
  if (website !== undefined) change.website = httpsUrl(website, 'website');
  const report = textChange(values, 'sentinel-report');
  if (report !== undefined) change.sentinelReport = httpsUrl(report, 'sentinel-report');
  const handle = textChange(values, 'twitter-handle');
  if (handle !== undefined) {
    const match = handle === null ? null : TWITTER_HANDLE.exec(handle);
    if (handle !== null && !match) throw new UsageError('--twitter-handle must be 1 to 15 letters, digits or _');
    change.twitterHandle = match?.[1] ?? null;
  }
  const supply = textChange(values, 'circulating-supply');
  if (supply !== undefined) {
    if (supply !== null && !/^(0|[1-9][0-9]{0,77})$/.test(supply)) {
      throw new UsageError('--circulating-supply must be an integer of raw token units');
    }
    change.circulatingSupply = supply === null ? null : BigInt(supply);
  }
  const flags = [
    ['due-diligence', 'dueDiligenceComplete'],
    ['fee-on-transfer', 'isFeeOnTransfer'],
    ['known', 'isKnown'],
    ['default', 'isDefault'],
  ] as const;
  for (const [option, field] of flags) {
    const value = values[option];
    if (value !== undefined) change[field] = value;
  }
  return change;
}
