// Cache strategy presets (Hydrogen's `packages/hydrogen/src/cache/strategies.ts`, in
// milliseconds), for `new CirrusClient({ cache })` and a call's `{ cache }`. Plain values: they
// need no `init()`, so a module may build its strategies at import time. What the members mean
// and how they are checked is the core's (src/cache.rs).
import type { CacheMembers } from "./cirrus_storefront.js";

/** Fresh for 1 s, then answered stale while one request refreshes it, for 9 s more. */
export function CacheShort(overrides?: CacheMembers): CacheMembers {
  return { maxAgeMs: 1_000, staleWhileRevalidateMs: 9_000, ...overrides };
}

/** Fresh for 1 hour, then answered stale while one request refreshes it, for 23 hours more. */
export function CacheLong(overrides?: CacheMembers): CacheMembers {
  return { maxAgeMs: 3_600_000, staleWhileRevalidateMs: 82_800_000, ...overrides };
}

/** Nothing is read from or written to the cache (`"no-store"`). */
export function CacheNone(): "no-store" {
  return "no-store";
}

/** A strategy of your own: `{ maxAgeMs, staleWhileRevalidateMs, staleIfErrorMs }` (absent members are 0). */
export function CacheCustom(strategy: CacheMembers): CacheMembers {
  return { ...strategy };
}
