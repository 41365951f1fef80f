/**
 * The farm's accounting written out again in bigint, step by step as the contract does it, so
 * the tests can check rewards to the unit over a schedule of block timestamps.
 */
export const ACC_PRECISION = 10n ** 18n;

interface PoolState {
  allocPoint: bigint;
  lastRewardTime: bigint;
  accSaucePerShare: bigint;
  accNativePerShare: bigint;
  totalStaked: bigint;
}

interface UserState {
  amount: bigint;
  sauceDebt: bigint;
  nativeDebt: bigint;
  nativeOwed: bigint;
}

export interface Paid {
  readonly sauce: bigint;
  readonly native: bigint;
  readonly owed: bigint;
}

export class FarmModel {
  saucePerSecond = 0n;
  nativePerSecond = 0n;
  totalAllocPoint = 0n;
  /** The farm's native balance. */
  balance = 0n;
  readonly pools: PoolState[] = [];
  private readonly users = new Map<string, UserState>();

  user(pid: number, account: string): UserState {
    const key = `${pid}:${account.toLowerCase()}`;
    let user = this.users.get(key);
    if (!user) {
      user = { amount: 0n, sauceDebt: 0n, nativeDebt: 0n, nativeOwed: 0n };
      this.users.set(key, user);
    }
    return user;
  }

  fund(amount: bigint): void {
    this.balance += amount;
  }

  add(allocPoint: bigint, time: bigint): void {
    this.massUpdate(time);
    this.totalAllocPoint += allocPoint;
    this.pools.push({ allocPoint, lastRewardTime: time, accSaucePerShare: 0n, accNativePerShare: 0n, totalStaked: 0n });
  }

  set(pid: number, allocPoint: bigint, time: bigint): void {
    this.massUpdate(time);
    const pool = this.pool(pid);
    this.totalAllocPoint = this.totalAllocPoint - pool.allocPoint + allocPoint;
    pool.allocPoint = allocPoint;
  }

  setEmissions(saucePerSecond: bigint, nativePerSecond: bigint, time: bigint): void {
    this.massUpdate(time);
    this.saucePerSecond = saucePerSecond;
    this.nativePerSecond = nativePerSecond;
  }

  deposit(pid: number, account: string, amount: bigint, time: bigint): Paid {
    return this.change(pid, account, amount, time);
  }

  withdraw(pid: number, account: string, amount: bigint, time: bigint): Paid {
    return this.change(pid, account, -amount, time);
  }

  harvest(pid: number, account: string, time: bigint): Paid {
    return this.change(pid, account, 0n, time);
  }

  /** Pays to an account that refuses native coin: everything native stays owed. */
  harvestRefused(pid: number, account: string, time: bigint): Paid {
    return this.change(pid, account, 0n, time, false);
  }

  pendingSauce(pid: number, account: string, time: bigint): bigint {
    const user = this.user(pid, account);
    const [accSauce] = this.accumulated(this.pool(pid), time);
    return (user.amount * accSauce) / ACC_PRECISION - user.sauceDebt;
  }

  pendingNative(pid: number, account: string, time: bigint): bigint {
    const user = this.user(pid, account);
    const [, accNative] = this.accumulated(this.pool(pid), time);
    return (user.amount * accNative) / ACC_PRECISION - user.nativeDebt + user.nativeOwed;
  }

  private change(pid: number, account: string, delta: bigint, time: bigint, accepts = true): Paid {
    this.update(pid, time);
    const pool = this.pool(pid);
    const user = this.user(pid, account);
    const sauce = (user.amount * pool.accSaucePerShare) / ACC_PRECISION - user.sauceDebt;
    const nativeDue = (user.amount * pool.accNativePerShare) / ACC_PRECISION - user.nativeDebt + user.nativeOwed;
    user.amount += delta;
    pool.totalStaked += delta;
    if (user.amount < 0n) throw new Error('model: withdrawal over the stake');
    user.sauceDebt = (user.amount * pool.accSaucePerShare) / ACC_PRECISION;
    user.nativeDebt = (user.amount * pool.accNativePerShare) / ACC_PRECISION;
    const native = accepts ? (nativeDue < this.balance ? nativeDue : this.balance) : 0n;
    this.balance -= native;
    user.nativeOwed = nativeDue - native;
    return { sauce, native, owed: user.nativeOwed };
  }

  private massUpdate(time: bigint): void {
    for (let pid = 0; pid < this.pools.length; pid++) this.update(pid, time);
  }

  private update(pid: number, time: bigint): void {
    const pool = this.pool(pid);
    if (time <= pool.lastRewardTime) return;
    [pool.accSaucePerShare, pool.accNativePerShare] = this.accumulated(pool, time);
    pool.lastRewardTime = time;
  }

  private accumulated(pool: PoolState, time: bigint): [bigint, bigint] {
    if (time <= pool.lastRewardTime || pool.totalStaked === 0n || pool.allocPoint === 0n) {
      return [pool.accSaucePerShare, pool.accNativePerShare];
    }
    const elapsed = time - pool.lastRewardTime;
    const sauce = (elapsed * this.saucePerSecond * pool.allocPoint) / this.totalAllocPoint;
    const native = (elapsed * this.nativePerSecond * pool.allocPoint) / this.totalAllocPoint;
    return [
      pool.accSaucePerShare + (sauce * ACC_PRECISION) / pool.totalStaked,
      pool.accNativePerShare + (native * ACC_PRECISION) / pool.totalStaked,
    ];
  }

  private pool(pid: number): PoolState {
    const pool = this.pools[pid];
    if (!pool) throw new Error(`model: no pool ${pid}`);
    return pool;
  }
}
