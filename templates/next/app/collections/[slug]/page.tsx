// A collection: its breadcrumb, description and products.
import { collectionSeo } from "cirrus-storefront";
import { Breadcrumb } from "@/components/breadcrumb";
import { JsonLd } from "@/components/json-ld";
import { ProductGrid } from "@/components/product-card";
import { priceFormat, store } from "@/lib/cirrus";
import { slugPage, type SlugProps } from "@/lib/slug-page";

const page = slugPage((client, slug) => client.collectionBySlug(slug), collectionSeo);
export const generateMetadata = page.generateMetadata;

export default async function CollectionPage(props: SlugProps) {
  const [s, c, price] = await Promise.all([store(), page.load(props), priceFormat()]);
  return (
    <>
      <JsonLd json={collectionSeo(s, c).jsonLd} />
      <Breadcrumb collections={c.breadcrumb} current={c.name} />
      <h1>{c.name}</h1>
      {c.description ? <p className="lead">{c.description}</p> : null}
      {c.products.length === 0 ? <p>No products in this collection yet.</p> : <ProductGrid products={c.products} price={(p) => price(p.price)} />}
    </>
  );
}
