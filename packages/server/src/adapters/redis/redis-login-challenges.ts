import type { Redis } from 'ioredis';
import { newLoginNonce } from '../../domain/accounts/login-nonce.js';
import { AppError, failingAs } from '../../domain/errors.js';
import { BOOK_FULL, type Challenge, type ChallengeBounds, type LoginChallenges } from '../../ports/login-challenges.js';

/**
 * What every script shares. KEYS[1]: every open challenge, scored by issue order; KEYS[2]: the
 * challenges by nonce, each `account \n requester \n expiresAt \n message`; ARGV[1] and ARGV[2]:
 * the prefixes of an account's and of a requester's own set of nonces. Every challenge lives
 * equally long, so issue order is expiry order: expired ones are at the front, as in the
 * in-process book. Times are the service's clock, passed in.
 */
const SHARED = `
local all, data, own, asked = KEYS[1], KEYS[2], ARGV[1], ARGV[2]
local function field(entry, index)
  local at = 1
  for _ = 1, index - 1 do at = string.find(entry, '\\n', at, true) + 1 end
  return string.sub(entry, at, (string.find(entry, '\\n', at, true) or 0) - 1)
end
local function drop(nonce)
  local entry = redis.call('HGET', data, nonce)
  if entry then
    redis.call('ZREM', own .. field(entry, 1), nonce)
    redis.call('ZREM', asked .. field(entry, 2), nonce)
    redis.call('HDEL', data, nonce)
  end
  redis.call('ZREM', all, nonce)
end
local function expire(now)
  while true do
    local first = redis.call('ZRANGE', all, 0, 0)[1]
    if not first then return end
    local entry = redis.call('HGET', data, first)
    if entry and tonumber(field(entry, 3)) > now then return end
    drop(first)
  end
end
`;

/**
 * KEYS[3]: the issue counter. ARGV: the two prefixes, account, requester, nonce, entry, now, per
 * account, per requester, total, keep ms. Answers 0 when the book is full (nothing changed), else 1.
 */
const ISSUE = `${SHARED}
local account, requester, nonce = ARGV[3], ARGV[4], ARGV[5]
expire(tonumber(ARGV[7]))
local theirs = asked .. requester
local asked_so_far = redis.call('ZCARD', theirs)
if asked_so_far >= tonumber(ARGV[9]) or (asked_so_far > 0 and redis.call('ZCARD', all) >= tonumber(ARGV[10])) then
  drop(redis.call('ZRANGE', theirs, 0, 0)[1])
end
if redis.call('ZCARD', all) >= tonumber(ARGV[10]) then return 0 end
local mine = own .. account
local held = redis.call('ZRANGE', mine, 0, -1)
if #held >= tonumber(ARGV[8]) then
  -- The oldest challenge of whichever requester holds the most of the account's, the asker counted with its new one.
  local owners, counts, most = {}, {[requester] = 1}, 1
  for i, held_nonce in ipairs(held) do
    owners[i] = field(redis.call('HGET', data, held_nonce), 2)
    counts[owners[i]] = (counts[owners[i]] or 0) + 1
    if counts[owners[i]] > most then most = counts[owners[i]] end
  end
  for i, held_nonce in ipairs(held) do
    if counts[owners[i]] == most then drop(held_nonce) break end
  end
end
local order = redis.call('INCR', KEYS[3])
redis.call('HSET', data, nonce, ARGV[6])
redis.call('ZADD', all, order, nonce)
redis.call('ZADD', mine, order, nonce)
redis.call('ZADD', theirs, order, nonce)
for _, name in ipairs({all, data, KEYS[3], mine, theirs}) do redis.call('PEXPIRE', name, ARGV[11]) end
return 1
`;

/** ARGV: the two prefixes, account, now. Answers the account's open challenges, oldest first: nonce, entry, nonce, entry... */
const PENDING = `${SHARED}
expire(tonumber(ARGV[4]))
local out = {}
for _, nonce in ipairs(redis.call('ZRANGE', own .. ARGV[3], 0, -1)) do
  out[#out + 1] = nonce
  out[#out + 1] = redis.call('HGET', data, nonce)
end
return out
`;

/** ARGV: the two prefixes, account, nonce, now. Answers 1 when the account's challenge was open and is now used. */
const CONSUME = `${SHARED}
expire(tonumber(ARGV[5]))
local entry = redis.call('HGET', data, ARGV[4])
if not entry or field(entry, 1) ~= ARGV[3] then return 0 end
drop(ARGV[4])
return 1
`;

/**
 * Keys outlive their last challenge by this long, so that Redis forgets a deployment's challenges
 * once nobody asks for them (the service's own clock decides expiry; this is only for cleanup).
 */
const KEPT_AFTER_TTL_MS = 3_600_000;

interface Scripts {
  challengeIssue(...args: (string | number)[]): Promise<number>;
  challengePending(...args: (string | number)[]): Promise<string[]>;
  challengeConsume(...args: (string | number)[]): Promise<number>;
}

/**
 * Login challenges in Redis, shared by every gateway: a challenge one issues, another can consume,
 * once. The same rules as the in-process book (expiry, single use, every bound), each operation
 * one atomic script.
 */
export class RedisLoginChallenges implements LoginChallenges {
  private readonly scripts: Scripts;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly bounds: ChallengeBounds,
  ) {
    redis.defineCommand('challengeIssue', { numberOfKeys: 3, lua: ISSUE });
    redis.defineCommand('challengePending', { numberOfKeys: 2, lua: PENDING });
    redis.defineCommand('challengeConsume', { numberOfKeys: 2, lua: CONSUME });
    this.scripts = redis as unknown as Scripts;
  }

  async issue(
    account: string,
    requester: string,
    now: number,
    compose: (nonce: string, expiresAt: number) => string,
  ): Promise<Challenge> {
    const nonce = newLoginNonce();
    const expiresAt = now + this.bounds.ttlMs;
    const message = compose(nonce, expiresAt);
    const { perAccount, perRequester, total, ttlMs } = this.bounds;
    // A requester is an address; a line break in it would break the entry's fields.
    const asker = requester.replace(/\n/g, ' ');
    const entry = `${account}\n${asker}\n${expiresAt}\n${message}`;
    const issued = await failingAs(
      'STORAGE_UNAVAILABLE',
      this.scripts.challengeIssue(
        ...this.keys(),
        `${this.prefix}challenges:issued`,
        ...this.prefixes(),
        account,
        asker,
        nonce,
        entry,
        now,
        perAccount,
        perRequester,
        total,
        ttlMs + KEPT_AFTER_TTL_MS,
      ),
    );
    if (issued === 0) throw new AppError('RATE_LIMITED', BOOK_FULL);
    return { nonce, message, expiresAt };
  }

  async pending(account: string, now: number): Promise<Challenge[]> {
    const reply = await failingAs(
      'STORAGE_UNAVAILABLE',
      this.scripts.challengePending(...this.keys(), ...this.prefixes(), account, now),
    );
    const challenges: Challenge[] = [];
    for (let at = 0; at + 1 < reply.length; at += 2) challenges.push(challengeOf(reply[at] as string, reply[at + 1] as string));
    return challenges;
  }

  async consume(account: string, nonce: string, now: number): Promise<boolean> {
    return (
      (await failingAs(
        'STORAGE_UNAVAILABLE',
        this.scripts.challengeConsume(...this.keys(), ...this.prefixes(), account, nonce, now),
      )) === 1
    );
  }

  private keys(): [string, string] {
    return [`${this.prefix}challenges:open`, `${this.prefix}challenges:entries`];
  }

  private prefixes(): [string, string] {
    return [`${this.prefix}challenges:of:`, `${this.prefix}challenges:asked-by:`];
  }
}

/** A challenge from its nonce and entry: `account \n requester \n expiresAt \n message` (the message may hold newlines). */
function challengeOf(nonce: string, entry: string): Challenge {
  const [, , expiresAt] = entry.split('\n', 3);
  const start = entry.split('\n', 3).join('\n').length + 1;
  return { nonce, message: entry.slice(start), expiresAt: Number(expiresAt) };
}
