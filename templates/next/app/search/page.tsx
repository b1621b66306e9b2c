// /search?q=…: the search rendered on the server from the cached index (lib/search.ts), its
// filters, sort and page in the URL (cirrus-storefront/search/store's `fromSearchParams` reads
// them), the facet counts beside each value (components/search-results.tsx).
import type { Metadata } from "next";
import { fromSearchParams, searchOptions } from "cirrus-storefront/search/store";
import { SearchResults } from "@/components/search-results";
import { store } from "@/lib/cirrus";
import { searchIndex } from "@/lib/search";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { query } = fromSearchParams(await searchParams);
  // A search's results are not a page to index.
  return { title: query ? `Search: ${query}` : "Search", robots: { index: false } };
}

export default async function SearchPage({ searchParams }: Props) {
  const search = fromSearchParams(await searchParams);
  const [{ index, cards }, s] = await Promise.all([searchIndex(), store()]);
  const result = index.search(search.query, searchOptions(search));
  return (
    <>
      <h1>Search</h1>
      <form action="/search" role="search" className="search-form">
        <label htmlFor="search-page-q">Search products</label>
        <input id="search-page-q" type="search" name="q" defaultValue={search.query} />
        <button type="submit" className="btn">Search</button>
      </form>
      <SearchResults path="/search" search={search} result={result} cards={cards} currency={s.defaultCurrency} />
    </>
  );
}
