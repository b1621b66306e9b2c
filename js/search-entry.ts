// Entry of `cirrus-storefront/search` (issue 42): the `SearchIndex` class alone, next to its own
// .wasm (the crate built with `--no-default-features --features search`: no client, cart or
// checkout). scripts/build-pkg.sh compiles this file as `search/index.ts`, with js/node-entry.ts
// as its node.ts and js/edge-entry.ts as its edge.ts (their `init()` gives this entry's wasm).
import { SearchIndex as WasmSearchIndex } from "./cirrus_storefront.js";
import { guardClass } from "./guard.js";

export type {
  CollectionFacet,
  FacetValue,
  Facets,
  Filters,
  Hit,
  MinorUnits,
  OptionFacet,
  OutOfStock,
  PriceBucket,
  PriceFacet,
  Product,
  SearchOptions,
  SearchResult,
  Sort,
  SuggestedCollection,
  SuggestedProduct,
  Suggestions,
} from "./cirrus_storefront.js";
import type { InitInput as GlueInitInput, SyncInitInput as GlueSyncInitInput } from "./cirrus_storefront.js";
/** What `init()` loads the search `.wasm` from (omitted: the package's own). */
export type InitInput = GlueInitInput;
/** What `initSync()` instantiates at once: the `.wasm`'s bytes or a compiled `WebAssembly.Module`. */
export type SyncInitInput = GlueSyncInitInput;
export { CirrusError, type CirrusErrorFields, type ErrorCode } from "./error.js";
export { isReady } from "./ready.js";
export { init } from "./load.js";
/** Synchronous `init()` from the module's bytes or a compiled `WebAssembly.Module`. */
export { initSync } from "./init-sync.js";

/**
 * A product search index (src/wasm/search.rs): `SearchIndex.build(products)` or
 * `SearchIndex.fromBytes(bytes)`, then `search(query, options)` and `suggest(prefix)`;
 * guarded so that a call before `init()` is a clear `CirrusError`.
 * @class
 */
export const SearchIndex = /* @__PURE__ */ guardClass(WasmSearchIndex);
export type SearchIndex = WasmSearchIndex;
