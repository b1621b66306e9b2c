// Search (/search?q=…): cirrus-storefront/search as the README says, its state in
// cirrus-storefront/search/store. This demo has no server of its own to build the index on, so
// the page builds it from `client.allProducts()` (a small catalog: milliseconds), once, the first
// time a search is shown; the search entry's .wasm is fetched then, never by other views. The
// search, its filters, sort and page are the URL (the store's `searchParams`): a filter is a link,
// so it is shareable and the back button restores the filters before it.
import type { CurrencyCode } from 'cirrus-storefront';
import type { Hit, SearchResult, Sort } from 'cirrus-storefront/search';
import { createSearchStore, fromSearchParams, searchParams, type SearchIndexLike, type SearchQuery, type SearchState } from 'cirrus-storefront/search/store';
import type { Ctx } from '../ctx';
import { h, replace, status } from '../dom';
import { fmt } from '../money';
import { href, navigate } from '../router';

/** The search entry's .wasm under /assets (www/build.mjs defines it). */
declare const __CIRRUS_SEARCH_WASM_URL__: string;

let index: Promise<SearchIndexLike> | null = null;
/** Product id → slug (a hit carries the id; the product's page is named by its slug). */
const slugs = new Map<string, string>();

/** The catalog's index, built once per page load (a failure is tried again next time). */
function loadIndex(ctx: Ctx): Promise<SearchIndexLike> {
  index ??= (async () => {
    const { init, SearchIndex } = await import('cirrus-storefront/search');
    await init(new URL(__CIRRUS_SEARCH_WASM_URL__, location.href));
    const products = [];
    for await (const p of ctx.api.client.allProducts()) products.push(p);
    for (const p of products) slugs.set(p.id, p.slug);
    return SearchIndex.build(products);
  })();
  index.catch(() => (index = null));
  return index;
}

const SORTS: [Sort, string][] = [['relevance', 'Relevance'], ['price-asc', 'Price: low to high'], ['price-desc', 'Price: high to low'], ['newest', 'Newest'], ['name', 'Name']];
const toggle = (list: string[] | null | undefined, v: string) => (list ?? []).includes(v) ? (list ?? []).filter((x) => x !== v) : [...(list ?? []), v];
const url = (s: SearchQuery) => {
  const p = searchParams(s);
  return p.size ? `/search?${p}` : '/search';
};

/** The header's search field: a GET form to /search, followed without a page load. */
export function searchForm(): HTMLElement {
  const input = h('input', { type: 'search', name: 'q', id: 'site-search', placeholder: 'Search', autocomplete: 'off' });
  return h('form', { class: 'site-search', role: 'search', action: '/search', onsubmit: ((e: Event) => {
    e.preventDefault();
    navigate(url({ ...fromSearchParams(new URLSearchParams()), query: input.value.trim() }));
  }) as EventListener },
  h('label', { for: 'site-search', class: 'visually-hidden' }, 'Search products'), input);
}

export async function searchView(main: HTMLElement, ctx: Ctx): Promise<void> {
  const search = fromSearchParams(new URLSearchParams(location.search));
  ctx.setTitle(search.query ? `Search: ${search.query}` : 'Search');
  const field = document.getElementById('site-search') as HTMLInputElement | null;
  if (field) field.value = search.query;
  const store = createSearchStore({ initial: search, index: () => loadIndex(ctx) });
  const results = h('div', { class: 'search-results' }, status('loading', 'Searching…'));
  replace(main, h('h1', null, search.query ? `Search: “${search.query}”` : 'Search'), results);
  const show = (s: SearchState) => {
    if (ctx.signal.aborted) return;
    if (s.status === 'error') replace(results, status('error', 'The search could not load. Please try again.', { label: 'Try again', run: () => void store.load() }));
    else if (s.results) replace(results, render(ctx, s, s.results));
  };
  store.subscribe(() => show(store.getSnapshot()));
  await store.load();
}

function render(ctx: Ctx, s: SearchState, r: SearchResult): HTMLElement {
  const currency = ctx.store.defaultCurrency;
  const f = r.facets;
  const facetLink = (label: string, count: number, on: boolean, to: SearchQuery, key: string) =>
    h('li', null, h('a', { href: url(to), 'data-facet': key, 'data-count': count, 'aria-current': on ? 'true' : null },
      h('span', { 'aria-hidden': 'true' }, on ? '☑ ' : '☐ '), label, ' ', h('span', { class: 'count' }, `(${count})`)));
  const filters = f ? [
    ...f.options.map((o) => h('section', { 'aria-label': o.name }, h('h2', null, o.name), h('ul', null,
      o.values.map((v) => {
        const on = s.filters.options?.[o.name]?.includes(v.value) ?? false;
        return facetLink(v.value, v.count, on, { ...s, page: 1, filters: { ...s.filters, options: { ...s.filters.options, [o.name]: toggle(s.filters.options?.[o.name], v.value) } } }, `${o.name}=${v.value}`);
      })))),
    f.collections.length ? h('section', { 'aria-label': 'Collections' }, h('h2', null, 'Collections'), h('ul', null,
      f.collections.map((c) => facetLink(c.name, c.count, s.filters.collections?.includes(c.id) ?? false,
        { ...s, page: 1, filters: { ...s.filters, collections: toggle(s.filters.collections, c.id) } }, `collection=${c.id}`)))) : null,
  ] : [];
  return h('div', { class: 'search' },
    h('aside', { 'aria-label': 'Filters', class: 'facets' }, filters),
    h('div', null,
      h('p', { role: 'status', 'data-total': r.total }, r.total === 1 ? '1 product' : `${r.total} products`),
      r.didYouMean ? h('p', null, 'Did you mean ', h('a', { href: url({ ...s, query: r.didYouMean, page: 1 }) }, r.didYouMean), '?') : null,
      h('nav', { 'aria-label': 'Sort', class: 'sorts' }, 'Sort: ',
        SORTS.map(([k, label]) => h('a', { href: url({ ...s, sort: k, page: 1 }), 'aria-current': s.sort === k ? 'true' : null }, label))),
      r.total === 0 ? status('empty', 'No products match.') : h('ul', { class: 'grid hits' }, r.hits.map((x) => hit(x, currency))),
      r.pages > 1 ? h('nav', { 'aria-label': 'Pages', class: 'pages' },
        s.page > 1 ? h('a', { href: url({ ...s, page: s.page - 1 }) }, 'Previous') : null,
        h('span', null, `Page ${s.page} of ${r.pages}`),
        s.page < r.pages ? h('a', { href: url({ ...s, page: s.page + 1 }) }, 'Next') : null) : null));
}

/** A hit: its name with the matched words marked, its price; a link to its page. */
function hit(x: Hit, currency: CurrencyCode): HTMLElement {
  const name: (Node | string)[] = [];
  let at = 0;
  for (const [a, b] of x.highlights) {
    if (a > at) name.push(x.name.slice(at, a));
    name.push(h('mark', null, x.name.slice(a, b)));
    at = b;
  }
  name.push(x.name.slice(at));
  return h('li', { class: 'card', 'data-hit': x.id },
    h('a', { href: href.product(slugs.get(x.id) ?? '') }, h('h2', null, name)),
    h('p', { class: 'price' }, x.price === null ? '' : fmt(x.price, currency), x.available ? '' : ' · sold out'));
}
