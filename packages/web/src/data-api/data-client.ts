import { createDataClient, type DataClient } from '@dex/sdk';
import { pageSettings as settings } from './page-settings-of-page.js';

/**
 * The data API client of the pools and farms pages, on the key the operator configured for the
 * page (WEB_DATA_API_KEY), never a visitor's; null when there is none.
 */
export const dataClient: DataClient | null =
  settings.dataApi === undefined
    ? null
    : createDataClient({
        baseUrl: `${location.origin}${settings.dataApi.path}`,
        apiKey: settings.dataApi.apiKey,
        timeoutMs: 10_000,
      });
