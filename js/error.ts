// CirrusError: the one error class of the package. Registered into the wasm
// module by init(), so errors thrown from Rust are instances of it.
import type { ErrorCode } from "./cirrus_storefront.js";

export type { ErrorCode };

/** The fields every `CirrusError` carries besides `message`. */
export interface CirrusErrorFields {
  /** What went wrong, as a stable machine code. */
  code: ErrorCode;
  /** HTTP status, when the error came from a response. */
  status: number | null;
  /** The server's `x-request-id`, when there was a response. */
  requestId: string | null;
  /** Seconds from `Retry-After`, when the server sent one. */
  retryAfter: number | null;
}

/** Internal: a `CirrusError` without `retryAfter` (the package's own errors). */
export const cirrusError = (code: ErrorCode, message: string, status: number | null = null, requestId: string | null = null): CirrusError =>
  new CirrusError(message, { code, status, requestId, retryAfter: null });

export class CirrusError extends Error implements CirrusErrorFields {
  readonly code: ErrorCode;
  readonly status: number | null;
  readonly requestId: string | null;
  readonly retryAfter: number | null;

  constructor(message: string, fields: CirrusErrorFields) {
    super(message);
    this.name = "CirrusError";
    this.code = fields.code;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.retryAfter = fields.retryAfter;
  }
}

/** `e` as a `CirrusError`: itself, or an `internal` one whose `cause` it is (a bug outside the SDK, e.g. a listener's). */
export function asCirrusError(e: unknown): CirrusError {
  if (e instanceof CirrusError) return e;
  const c = cirrusError("internal", e instanceof Error ? e.message : String(e));
  Object.defineProperty(c, "cause", { value: e });
  return c;
}
