/** A 20-byte EVM address; lower-case hex once it went through the codec. */
export type Address = `0x${string}`;
/** 0x-prefixed hex bytes. */
export type Hex = `0x${string}`;

export interface OrderInfo {
  reactor: Address;
  swapper: Address;
  nonce: bigint;
  deadline: bigint;
  additionalValidationContract: Address;
  additionalValidationData: Hex;
}

export interface InputToken {
  token: Address;
  amount: bigint;
}

export interface OutputToken {
  token: Address;
  amount: bigint;
  recipient: Address;
}

/** The signed order of the reactor (EIP-712 primary type `PartialFillLimitOrder`). */
export interface PartialFillLimitOrder {
  info: OrderInfo;
  input: InputToken;
  output: OutputToken;
  makerOnly: boolean;
  takerOnce: boolean;
  maxTakerFeePips: number;
  maxMakerFeePips: number;
}

export interface Eip712Domain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}

export interface WireOrderInfo {
  reactor: string;
  swapper: string;
  nonce: string;
  deadline: string;
  additionalValidationContract: string;
  additionalValidationData: string;
}

export interface WireInputToken {
  token: string;
  amount: string;
}

export interface WireOutputToken {
  token: string;
  amount: string;
  recipient: string;
}

/** The order as JSON carries it: uint256 values as decimal strings, pips as numbers. */
export interface WireOrder {
  info: WireOrderInfo;
  input: WireInputToken;
  output: WireOutputToken;
  makerOnly: boolean;
  takerOnce: boolean;
  maxTakerFeePips: number;
  maxMakerFeePips: number;
}
