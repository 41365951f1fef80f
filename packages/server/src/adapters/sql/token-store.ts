import type { NewToken, TokenListingChange, TokenRecord } from '../../domain/markets/market-records.js';
import type { TokenStore } from '../../ports/store/ports.js';
import { type SqlClient, sql } from './sql-client.js';
import { conflict } from './store-conflict.js';

interface TokenRow {
  id: string;
  evm_address: string;
  symbol: string;
  name: string;
  decimals: number;
  icon: string | null;
  description: string | null;
  website: string | null;
  due_diligence_complete: number;
  is_fee_on_transfer: number;
  sentinel_report: string | null;
  twitter_handle: string | null;
  circulating_supply: string | null;
  is_known: number;
  is_default: number;
  created_at: number;
  updated_at: number;
}

function toToken(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    evmAddress: row.evm_address,
    symbol: row.symbol,
    name: row.name,
    decimals: row.decimals,
    icon: row.icon,
    description: row.description,
    website: row.website,
    dueDiligenceComplete: row.due_diligence_complete === 1,
    isFeeOnTransfer: row.is_fee_on_transfer === 1,
    sentinelReport: row.sentinel_report,
    twitterHandle: row.twitter_handle,
    circulatingSupply: row.circulating_supply === null ? null : BigInt(row.circulating_supply),
    isKnown: row.is_known === 1,
    isDefault: row.is_default === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A flag as the store keeps it, or null to leave it alone in an update. */
function bit(value: boolean | undefined): number | null {
  return value === undefined ? null : value ? 1 : 0;
}

/** Token fields as statement parameters: flags as 0/1, amounts as text; absent ones null. */
function tokenParameters(token: TokenListingChange) {
  return {
    dueDiligenceComplete: bit(token.dueDiligenceComplete),
    isFeeOnTransfer: bit(token.isFeeOnTransfer),
    isKnown: bit(token.isKnown),
    isDefault: bit(token.isDefault),
    circulatingSupply:
      token.circulatingSupply === undefined || token.circulatingSupply === null ? null : token.circulatingSupply.toString(),
  };
}

const statements = {
  listTokens: sql<TokenRow>('SELECT * FROM tokens ORDER BY created_at, id'),
  getToken: sql<TokenRow>('SELECT * FROM tokens WHERE id = ?'),
  insertToken: sql(
    `INSERT INTO tokens (id, evm_address, symbol, name, decimals, icon, description, website,
         due_diligence_complete, is_fee_on_transfer, sentinel_report, twitter_handle, circulating_supply, is_known, is_default,
         created_at, updated_at)
       VALUES (@id, @evmAddress, @symbol, @name, @decimals, @icon, @description, @website,
         @dueDiligenceComplete, @isFeeOnTransfer, @sentinelReport, @twitterHandle, @circulatingSupply, @isKnown, @isDefault,
         @now, @now)`,
  ),
  // A text field is changed only when it is named (@set...); null then clears it.
  updateToken: sql(
    `UPDATE tokens SET
         icon = CASE WHEN @setIcon = 1 THEN @icon ELSE icon END,
         description = CASE WHEN @setDescription = 1 THEN @description ELSE description END,
         website = CASE WHEN @setWebsite = 1 THEN @website ELSE website END,
         sentinel_report = CASE WHEN @setSentinelReport = 1 THEN @sentinelReport ELSE sentinel_report END,
         twitter_handle = CASE WHEN @setTwitterHandle = 1 THEN @twitterHandle ELSE twitter_handle END,
         circulating_supply = CASE WHEN @setCirculatingSupply = 1 THEN @circulatingSupply ELSE circulating_supply END,
         due_diligence_complete = coalesce(@dueDiligenceComplete, due_diligence_complete),
         is_fee_on_transfer = coalesce(@isFeeOnTransfer, is_fee_on_transfer),
         is_known = coalesce(@isKnown, is_known),
         is_default = coalesce(@isDefault, is_default),
         updated_at = @now
       WHERE id = @id`,
  ),
};

/** The token registry: what the data API lists and the books trade. */
export function sqlTokenStore(db: SqlClient): TokenStore {
  return {
    async list() {
      return (await db.all(statements.listTokens)).map(toToken);
    },
    async insert(token: NewToken, now: number) {
      try {
        await db.run(statements.insertToken, { ...token, ...tokenParameters(token), now });
      } catch (error) {
        conflict(db, error, {
          duplicate: `a token with id ${token.id} or address ${token.evmAddress} already exists`,
          reference: `token ${token.id} refers to something unknown`,
          rule: `token ${token.id} breaks a rule of the store (decimals 0 to 36)`,
        });
      }
      return toToken((await db.get(statements.getToken, token.id)) as TokenRow);
    },
    async update(id, change, now) {
      const named = (field: keyof TokenListingChange) => (change[field] === undefined ? 0 : 1);
      const changed = await db.run(statements.updateToken, {
        id,
        now,
        icon: change.icon ?? null,
        description: change.description ?? null,
        website: change.website ?? null,
        sentinelReport: change.sentinelReport ?? null,
        twitterHandle: change.twitterHandle ?? null,
        setIcon: named('icon'),
        setDescription: named('description'),
        setWebsite: named('website'),
        setSentinelReport: named('sentinelReport'),
        setTwitterHandle: named('twitterHandle'),
        setCirculatingSupply: named('circulatingSupply'),
        ...tokenParameters(change),
      });
      if (changed === 0) return undefined;
      return toToken((await db.get(statements.getToken, id)) as TokenRow);
    },
  };
}
