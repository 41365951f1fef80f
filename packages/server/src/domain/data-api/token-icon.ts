/** The icon of a token the operator gave none: a path relative to the API's base, as the published icons are. */
export const DEFAULT_TOKEN_ICON = '/images/tokens/default.svg';
