// cirrus-storefront/search/store and /search/react (issue 42) from the packed package, in node
// (stage 45-react, in its consumer project, against its dev server): the server renders the
// results it searched; a store made with that state gives them as both snapshots (a hydration
// renders what the server did) and loads no index until a change or load(); a change searches
// the index (a facet's count is the total its filter gives; a new filter goes back to page 1);
// the latest change wins; an index that does not load is the state `error` and is asked again;
// the URL form reads back what it wrote.
import assert from "node:assert/strict";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { CirrusClient, init as initSdk } from "cirrus-storefront";
import { init, SearchIndex } from "cirrus-storefront/search";
import { createSearchStore, fromSearchParams, searchOptions, searchParams } from "cirrus-storefront/search/store";
import { useSearch, useSearchStore } from "cirrus-storefront/search/react";

await Promise.all([initSdk(), init()]);
const client = new CirrusClient({ baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
const products = [];
for await (const p of client.allProducts()) products.push(p);
const index = SearchIndex.build(products);
const bytes = index.toBytes();

// The server: a search from the URL, its results rendered through the hook.
const search = fromSearchParams(new URLSearchParams("q=hoodie&sort=price-asc"));
assert.deepEqual(search, { query: "hoodie", filters: {}, sort: "price-asc", page: 1 });
const serverResults = index.search(search.query, searchOptions(search));
assert.ok(serverResults.total > 0, "the seed has hoodies");
let loads = 0;
const loadIndex = async () => {
  loads++;
  return SearchIndex.fromBytes(bytes);
};
function Results({ initial }) {
  const store = useSearchStore({ initial, index: loadIndex });
  const hits = useSearch(store, (s) => s.results?.hits ?? []);
  return h("ul", null, hits.map((x) => h("li", { key: x.id }, x.name)));
}
const html = renderToString(h(Results, { initial: { ...search, results: serverResults } }));
for (const hit of serverResults.hits) assert.ok(html.includes(`<li>${hit.name.replaceAll("&", "&amp;").replaceAll("'", "&#x27;")}</li>`), `${hit.name} in the server HTML`);
assert.equal(loads, 0, "rendering the server's results loads no index");

// The browser: the store made with the server's state.
const store = createSearchStore({ initial: { ...search, results: serverResults }, index: loadIndex });
const first = store.getSnapshot();
assert.equal(store.getServerSnapshot(), first, "before any change, the snapshot is the server's");
assert.equal(first.results, serverResults);
assert.equal(first.status, "ready");
let told = 0;
const stop = store.subscribe(() => told++);
const color = serverResults.facets.options.find((o) => o.name === "Color").values[0];
await store.set({ page: 2 });
await store.set({ filters: { options: { Color: [color.value] } } });
assert.equal(loads, 1, "the index loaded once, on the first change");
const now = store.getSnapshot();
assert.equal(now.page, 1, "a new filter goes back to page 1");
assert.equal(now.sort, "price-asc", "the rest of the search is kept");
assert.equal(now.results.total, color.count, `Color ${color.value}: the facet's count is the total its filter gives`);
for (let i = 1; i < now.results.hits.length; i++) assert.ok(now.results.hits[i - 1].price <= now.results.hits[i].price, "sorted by price");
assert.equal(store.getServerSnapshot(), first, "the server snapshot stays the server's");
assert.ok(told >= 3, `listeners told of every change (${told})`);
// Two changes at once: the results are the last one's.
await Promise.all([store.set({ query: "mug" }), store.set({ query: "hoodie", filters: null })]);
assert.equal(store.getSnapshot().query, "hoodie");
assert.equal(store.getSnapshot().results.total, serverResults.total, "the last change's results");
stop();
const before = told;
await store.set({ query: "hodoie" });
assert.equal(told, before, "an unsubscribed listener is not told");
assert.ok(store.getSnapshot().results.hits.some((x) => /hoodie/i.test(x.name)), '"hodoie" finds hoodies');

// An index that does not load: the state says so, and the next change asks again.
let tries = 0;
const failing = createSearchStore({ suggest: true, index: async () => (++tries === 1 ? Promise.reject(new Error("offline")) : SearchIndex.fromBytes(bytes)) });
assert.equal(failing.getSnapshot().status, "idle");
await failing.load();
assert.equal(failing.getSnapshot().status, "error");
assert.equal(failing.getSnapshot().error.message, "offline");
await failing.set({ query: "hood" });
assert.equal(tries, 2, "asked again");
assert.equal(failing.getSnapshot().status, "ready");
assert.ok(failing.getSnapshot().suggestions.products.length > 0, "suggestions for what was typed");

// The URL form: written and read back.
const full = { query: "red t-shirt", filters: { options: { Color: ["Red", "Navy & Blue"], Size: ["M"] }, collections: ["c1"], tags: ["wool"], minPrice: 1000, maxPrice: 5000 }, sort: "name", page: 3 };
assert.deepEqual(fromSearchParams(searchParams(full)), full);
assert.equal(searchParams({ query: "", filters: {}, sort: "relevance", page: 1 }).toString(), "", "defaults are left out");
assert.deepEqual(fromSearchParams({ q: "x", page: "0", sort: "cheapest", min: "-5", "o.Size": ["S", "M"] }), { query: "x", filters: { options: { Size: ["S", "M"] } }, sort: "relevance", page: 1 });
console.log(`search store: ${products.length} products, server HTML of ${serverResults.hits.length} hits, ${told} changes told, index loaded ${loads} time(s): ok`);
