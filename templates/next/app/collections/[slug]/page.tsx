// A collection: its breadcrumb, description and products.
import { collectionSeo } from "cirrus-storefront";
import { fromSearchParams, searchOptions, searchParams } from "cirrus-storefront/search/store";
import { Breadcrumb } from "@/components/breadcrumb";
import { JsonLd } from "@/components/json-ld";
import { ProductGrid } from "@/components/product-card";
import { SearchResults } from "@/components/search-results";
import { priceFormat, store } from "@/lib/cirrus";
import { searchIndex } from "@/lib/search";
import { slugPage, type SlugProps } from "@/lib/slug-page";

const page = slugPage((client, slug) => client.collectionBySlug(slug), collectionSeo);
export const generateMetadata = page.generateMetadata;

type Props = SlugProps & { searchParams: Promise<Record<string, string | string[] | undefined>> };

// The collection's products with the search page's filters and sort (components/search-results.tsx):
// the facets counted within the collection; while nothing is chosen, the products in the collection's own order.
export default async function CollectionPage(props: Props) {
  const [s, c, price, { index, cards }, params] = await Promise.all([store(), page.load(props), priceFormat(), searchIndex(), props.searchParams]);
  const search = fromSearchParams(params);
  const fixed = { collections: [c.id] };
  const result = index.search(search.query, searchOptions({ ...search, filters: { ...search.filters, ...fixed } }));
  const chosen = searchParams(search).size > 0;
  return (
    <>
      <JsonLd json={collectionSeo(s, c).jsonLd} />
      <Breadcrumb collections={c.breadcrumb} current={c.name} />
      <h1>{c.name}</h1>
      {c.description ? <p className="lead">{c.description}</p> : null}
      {c.products.length === 0 ? (
        <p>No products in this collection yet.</p>
      ) : (
        <SearchResults path={`/collections/${encodeURIComponent(c.slug)}`} search={search} result={result} cards={cards} currency={s.defaultCurrency} fixed={fixed}>
          {chosen ? null : <ProductGrid products={c.products} price={(p) => price(p.price)} />}
        </SearchResults>
      )}
    </>
  );
}
