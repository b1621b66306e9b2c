// `cirrus-storefront/search/store` (issue 42): the state of a search (query, filters, sort, page,
// results, suggestions) as a plain-JS store any framework reads (`subscribe`/`getSnapshot`, the
// shape of React's useSyncExternalStore), and the one URL form of that state
// (`searchParams`/`fromSearchParams`), which a server page reads and the store writes.
// It imports no wasm: the index is what `options.index()` resolves to (the caller's dynamic
// `import("cirrus-storefront/search")` and its bytes), asked for on the first change or `load()`,
// so a page renders the server's first results and loads the search wasm only once the buyer acts.
// Compiled next to the search entry (scripts/build-pkg.sh), whose types it names.
import type { Filters, OutOfStock, SearchOptions, SearchResult, Sort, Suggestions } from "./index.js";

/** What the store searches: a `SearchIndex` of `cirrus-storefront/search` (or a double of it). */
export interface SearchIndexLike {
  /** `SearchIndex.search`: hits, totals, facets of `query` with `options`. */
  search(query: string, options?: SearchOptions | null): SearchResult;
  /** `SearchIndex.suggest`: completed queries, products, collections for what was typed. */
  suggest(prefix: string): Suggestions;
}

/** What a search is: the part of the state a URL carries. */
export interface SearchQuery {
  /** What the buyer typed (`""`: every product). */
  query: string;
  filters: Filters;
  sort: Sort;
  /** 1-based. */
  page: number;
}

/** The state of a search store: a new frozen object after every change. */
export interface SearchState extends SearchQuery {
  /** The results of `query`, `filters`, `sort`, `page` (the server's, until the store searched itself); null before any. */
  results: SearchResult | null;
  /** `suggest(query)` when the store was made with `suggest: true`, else null. */
  suggestions: Suggestions | null;
  /** `loading` while the index loads, `error` when it could not load or a search threw. */
  status: "idle" | "loading" | "ready" | "error";
  /** What was thrown (a `CirrusError` from the index), else null. */
  error: unknown;
}

/** Options of `createSearchStore`. */
export interface SearchStoreOptions {
  /** Resolves to the index; called once, on the first change or `load()`. */
  index: () => Promise<SearchIndexLike>;
  /** The state the server rendered (its query and results): the snapshot until the store searches. */
  initial?: Partial<SearchState>;
  /** Results per page (default 20). */
  perPage?: number;
  /** Products with no variant in stock: `hide`, `last` (default) or `mix`. */
  outOfStock?: OutOfStock;
  /** Facet counts computed (default true; predictive search needs none). */
  facets?: boolean;
  /** Fill `suggestions` with `suggest(query)` (default false). */
  suggest?: boolean;
}

/** A search's state, changed by its methods, read with `subscribe`/`getSnapshot`. */
export interface SearchStore {
  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** The state now. */
  getSnapshot(): SearchState;
  /** The state the store was made with (what the server rendered): the snapshot of a hydration. */
  getServerSnapshot(): SearchState;
  /** Changes part of the search (a new query or filters go back to page 1 unless `page` is given) and searches. */
  set(change: Partial<SearchQuery>): Promise<void>;
  /** Loads the index now (e.g. when the search field is focused) and searches the state's query. */
  load(): Promise<void>;
}

const SORTS: readonly Sort[] = ["relevance", "price-asc", "price-desc", "newest", "name"];
const EMPTY_FILTERS: Filters = Object.freeze({});

/** The state of a search as URL parameters: `q`, `sort`, `page`, `o.<Option>` (repeated), `collection`, `tag` (repeated), `min`/`max` (minor units); defaults left out. */
export function searchParams(search: Partial<SearchQuery>): URLSearchParams {
  const p = new URLSearchParams();
  if (search.query) p.set("q", search.query);
  const f = search.filters ?? EMPTY_FILTERS;
  for (const [name, values] of Object.entries(f.options ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    for (const v of values) p.append(`o.${name}`, v);
  for (const c of f.collections ?? []) p.append("collection", c);
  for (const t of f.tags ?? []) p.append("tag", t);
  if (f.minPrice != null) p.set("min", String(f.minPrice));
  if (f.maxPrice != null) p.set("max", String(f.maxPrice));
  if (search.sort && search.sort !== "relevance") p.set("sort", search.sort);
  if (search.page && search.page > 1) p.set("page", String(search.page));
  return p;
}

/** The search a URL's parameters name (what `searchParams` wrote); what does not read is left at its default. */
export function fromSearchParams(params: URLSearchParams | Record<string, string | string[] | undefined>): SearchQuery {
  const p = params instanceof URLSearchParams ? params : toParams(params);
  const options: Record<string, string[]> = {};
  for (const [k, v] of p) if (k.startsWith("o.") && k.length > 2) (options[k.slice(2)] ??= []).push(v);
  const filters: Filters = {};
  if (Object.keys(options).length) filters.options = options;
  if (p.has("collection")) filters.collections = p.getAll("collection");
  if (p.has("tag")) filters.tags = p.getAll("tag");
  const price = (k: string) => {
    const n = Number(p.get(k) ?? "");
    return p.get(k) && Number.isSafeInteger(n) && n >= 0 ? (n as Filters["minPrice"]) : null;
  };
  if (price("min") != null) filters.minPrice = price("min");
  if (price("max") != null) filters.maxPrice = price("max");
  const sort = p.get("sort") as Sort | null;
  const page = Number(p.get("page") ?? "1");
  return {
    query: p.get("q") ?? "",
    filters,
    sort: sort && SORTS.includes(sort) ? sort : "relevance",
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** Next.js's `searchParams` (a value or an array per name) as URLSearchParams. */
function toParams(record: Record<string, string | string[] | undefined>): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(record)) for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) p.append(k, one);
  return p;
}

/** The options of `index.search` for a search (what the store and a server page pass). */
export function searchOptions(search: SearchQuery, options: Pick<SearchStoreOptions, "perPage" | "outOfStock" | "facets"> = {}): SearchOptions {
  return { filters: search.filters, sort: search.sort, page: search.page, perPage: options.perPage ?? 20, outOfStock: options.outOfStock ?? "last", facets: options.facets ?? true };
}

/**
 * A search store: the server's state first (`initial`), then, from the first `set` or `load`,
 * the results of the index `options.index()` gives (searched synchronously once it is loaded;
 * the latest change wins).
 * @example
 * const store = createSearchStore({
 *   initial: { query: "hoodie", results: serverResults },
 *   index: async () => {
 *     const { init, SearchIndex } = await import("cirrus-storefront/search");
 *     await init();
 *     return SearchIndex.fromBytes(new Uint8Array(await (await fetch(indexUrl)).arrayBuffer()));
 *   },
 * });
 * store.subscribe(() => render(store.getSnapshot()));
 * await store.set({ filters: { options: { Size: ["M"] } } });
 */
export function createSearchStore(options: SearchStoreOptions): SearchStore {
  const init = options.initial ?? {};
  const first: SearchState = Object.freeze({
    query: init.query ?? "",
    filters: init.filters ?? EMPTY_FILTERS,
    sort: init.sort ?? "relevance",
    page: init.page ?? 1,
    results: init.results ?? null,
    suggestions: init.suggestions ?? null,
    status: init.results ? "ready" : "idle",
    error: null,
  });
  let state = first;
  let index: Promise<SearchIndexLike> | undefined;
  const listeners = new Set<() => void>();
  const update = (change: Partial<SearchState>) => {
    state = Object.freeze({ ...state, ...change });
    for (const l of [...listeners]) l();
  };
  const run = async () => {
    if (!index) {
      update({ status: "loading", error: null });
      index = options.index();
    }
    let ix: SearchIndexLike;
    try {
      ix = await index;
    } catch (error) {
      index = undefined; // the next change tries again
      update({ status: "error", error });
      return;
    }
    // The state as it is now: of several changes made while the index loaded, the last is searched.
    try {
      const results = ix.search(state.query, searchOptions(state, options));
      const suggestions = options.suggest ? ix.suggest(state.query) : null;
      update({ results, suggestions, status: "ready", error: null });
    } catch (error) {
      update({ status: "error", error });
    }
  };
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: () => state,
    getServerSnapshot: () => first,
    set(change) {
      const next: Partial<SearchState> = { ...change };
      if (change.page === undefined && (change.query !== undefined || change.filters !== undefined || change.sort !== undefined)) next.page = 1;
      if (next.filters === null) next.filters = EMPTY_FILTERS;
      update(next);
      return run();
    },
    load: () => (index ? Promise.resolve() : run()),
  };
}
