// `cirrus-storefront/search/react` (issue 42): React's view of a search store
// (`cirrus-storefront/search/store`): `useSearchStore` makes one per component, `useSearch`
// reads it with useSyncExternalStore, the server's snapshot (the results it rendered) during a
// hydration, so the first render matches the HTML and the store takes over after. No wasm here
// and none imported: the index comes from the store's `index` option when the buyer acts.
import { useState, useSyncExternalStore } from "react";
import { createSearchStore, type SearchState, type SearchStore, type SearchStoreOptions } from "./search-store.js";

export type { SearchState, SearchStore, SearchStoreOptions };

/**
 * A search store made once for this component (its options read on the first render only).
 * @example
 * const store = useSearchStore({ initial: { query, results }, index: loadIndex });
 */
export function useSearchStore(options: SearchStoreOptions): SearchStore {
  const [store] = useState(() => createSearchStore(options));
  return store;
}

/**
 * The store's state, or the part `select` picks (return a member of the state, not a new
 * object: a new object every call renders forever); re-rendered on every change.
 * @example
 * const total = useSearch(store, (s) => s.results?.total ?? 0);
 */
export function useSearch<T = SearchState>(store: SearchStore, select?: (state: SearchState) => T): T {
  const pick = select ?? ((s: SearchState) => s as unknown as T);
  return useSyncExternalStore(
    store.subscribe,
    () => pick(store.getSnapshot()),
    () => pick(store.getServerSnapshot()),
  );
}
