// A search's results as the server renders them (server component): the facets with their
// counts beside each value, the sort, the hits, the pages. Every choice is a link to the URL of
// that search (cirrus-storefront/search/store's `searchParams`): shareable, the back button
// goes back to the filters before, and it works before (and without) any JavaScript.
import Link from "next/link";
import { formatMoney, type CurrencyCode } from "cirrus-storefront";
import type { Filters, Hit, SearchResult, Sort } from "cirrus-storefront/search";
import { searchParams, type SearchQuery } from "cirrus-storefront/search/store";
import { assetUrl } from "@/lib/cirrus";
import type { HitCard } from "@/lib/search";

const SORTS: [Sort, string][] = [["relevance", "Relevance"], ["price-asc", "Price: low to high"], ["price-desc", "Price: high to low"], ["newest", "Newest"], ["name", "Name"]];

/** `list` with `value` added, or taken out when it is there. */
function toggle(list: string[] | null | undefined, value: string): string[] {
  const l = list ?? [];
  return l.includes(value) ? l.filter((v) => v !== value) : [...l, value];
}

export function SearchResults({ path, search, result, cards, currency, fixed = {}, children }: {
  /** The page's own path: "/search", or a collection's. */
  path: string;
  search: SearchQuery;
  result: SearchResult;
  cards: Record<string, HitCard>;
  currency: CurrencyCode;
  /** Filters of the page itself (a collection's), not shown as choices nor put in its URLs. */
  fixed?: Filters;
  /** Shown instead of the hits (a collection's own order while nothing is chosen). */
  children?: React.ReactNode;
}) {
  const href = (change: Partial<SearchQuery>) => {
    const p = searchParams({ ...search, page: 1, ...change });
    return p.size ? `${path}?${p}` : path;
  };
  const withFilters = (f: Partial<Filters>) => href({ filters: { ...search.filters, ...f } });
  const money = (m: number) => formatMoney(m as never, currency, "en-US");
  const f = result.facets;
  const chosen = search.filters;
  return (
    <div className="search">
      <aside aria-label="Filters" className="facets">
        {f?.options.map((o) => (
          <section key={o.name} aria-label={o.name}>
            <h2>{o.name}</h2>
            <ul>
              {o.values.map((v) => {
                const on = chosen.options?.[o.name]?.includes(v.value) ?? false;
                return (
                  <li key={v.value}>
                    <Link prefetch={false} href={withFilters({ options: { ...chosen.options, [o.name]: toggle(chosen.options?.[o.name], v.value) } })} data-facet={`${o.name}=${v.value}`} data-count={v.count} aria-current={on ? "true" : undefined}>
                      <span className="check" aria-hidden="true">{on ? "☑" : "☐"}</span> {v.value} <span className="count">({v.count})</span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
        {f && !fixed.collections && f.collections.length > 0 ? (
          <section aria-label="Collections">
            <h2>Collections</h2>
            <ul>
              {f.collections.map((c) => {
                const on = chosen.collections?.includes(c.id) ?? false;
                return (
                  <li key={c.id}>
                    <Link prefetch={false} href={withFilters({ collections: toggle(chosen.collections, c.id) })} data-facet={`collection=${c.id}`} data-count={c.count} aria-current={on ? "true" : undefined}>
                      <span className="check" aria-hidden="true">{on ? "☑" : "☐"}</span> {c.name} <span className="count">({c.count})</span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        ) : null}
        {f?.price && f.price.histogram.length > 1 ? (
          <section aria-label="Price">
            <h2>Price</h2>
            <ul>
              {f.price.histogram.filter((b) => b.count > 0).map((b) => {
                const on = chosen.minPrice === b.min && chosen.maxPrice === b.max;
                return (
                  <li key={b.min}>
                    <Link prefetch={false} href={withFilters(on ? { minPrice: null, maxPrice: null } : { minPrice: b.min, maxPrice: b.max })} data-facet={`price=${b.min}-${b.max}`} data-count={b.count} aria-current={on ? "true" : undefined}>
                      <span className="check" aria-hidden="true">{on ? "☑" : "☐"}</span> {money(b.min)} – {money(b.max)} <span className="count">({b.count})</span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </section>
        ) : null}
      </aside>
      <div className="search-main">
        <p className="search-total" role="status" data-total={result.total}>
          {result.total === 1 ? "1 product" : `${result.total} products`}
          {search.query ? <> for “{search.query}”</> : null}
        </p>
        {result.didYouMean ? (
          <p>
            Did you mean <Link prefetch={false} href={href({ query: result.didYouMean })}>{result.didYouMean}</Link>?
          </p>
        ) : null}
        <nav aria-label="Sort" className="sorts">
          Sort:{" "}
          {SORTS.map(([s, label]) => (
            <Link key={s} prefetch={false} href={href({ sort: s })} aria-current={search.sort === s ? "true" : undefined}>
              {label}
            </Link>
          ))}
        </nav>
        {children ?? (
          <ul className="grid hits">
            {result.hits.map((h, i) => (
              <HitCardView key={h.id} hit={h} card={cards[h.id]} price={h.price === null ? "" : money(h.price)} eager={i < 4} />
            ))}
          </ul>
        )}
        {result.pages > 1 ? (
          <nav aria-label="Pages" className="pages">
            {search.page > 1 ? <Link prefetch={false} href={href({ ...search, page: search.page - 1 })}>Previous</Link> : null}
            <span>
              Page {search.page} of {result.pages}
            </span>
            {search.page < result.pages ? <Link prefetch={false} href={href({ ...search, page: search.page + 1 })}>Next</Link> : null}
          </nav>
        ) : null}
      </div>
    </div>
  );
}

/** A hit: its card, the matched words of its name marked. */
function HitCardView({ hit, card, price, eager }: { hit: Hit; card: HitCard | undefined; price: string; eager: boolean }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [s, e] of hit.highlights) {
    if (s > at) parts.push(hit.name.slice(at, s));
    parts.push(<mark key={s}>{hit.name.slice(s, e)}</mark>);
    at = e;
  }
  parts.push(hit.name.slice(at));
  const image = card?.images[0];
  return (
    <li className="card" data-hit={hit.id}>
      <Link prefetch={false} href={card ? `/products/${encodeURIComponent(card.slug)}` : `/search/product/${encodeURIComponent(hit.id)}`}>
        {image ? <img src={assetUrl(image.url)} alt="" width={300} height={300} loading={eager ? "eager" : "lazy"} decoding="async" /> : null}
        <span className="card-name">{parts}</span>
      </Link>
      <span className="card-price">
        {price}
        {hit.available ? null : " · sold out"}
      </span>
    </li>
  );
}
