import { parsePageSettings } from './page-settings.js';

/** This page's settings, read once from the tag the service put in its HTML. */
export const pageSettings = parsePageSettings(document.querySelector('meta[name="dex-page-settings"]')?.getAttribute('content'));
