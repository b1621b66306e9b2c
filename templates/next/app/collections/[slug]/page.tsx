// A collection: its breadcrumb, description and products.
import type { Metadata } from "next";
import Link from "next/link";
import { collectionSeo, toNextMetadata } from "cirrus-storefront";
import { JsonLd } from "@/components/json-ld";
import { ProductGrid } from "@/components/product-card";
import { cirrus, orNotFound, priceFormat, store } from "@/lib/cirrus";

type Props = { params: Promise<{ slug: string }> };
const collection = async (slug: string) => orNotFound(async () => (await cirrus()).collectionBySlug(slug));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [s, c] = await Promise.all([store(), collection((await params).slug)]);
  return toNextMetadata(collectionSeo(s, c));
}

export default async function CollectionPage({ params }: Props) {
  const [s, c, price] = await Promise.all([store(), collection((await params).slug), priceFormat()]);
  return (
    <>
      <JsonLd json={collectionSeo(s, c).jsonLd} />
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link href="/">Home</Link>
          </li>
          {c.breadcrumb.map((b) => (
            <li key={b.slug}>
              <Link href={`/collections/${encodeURIComponent(b.slug)}`}>{b.name}</Link>
            </li>
          ))}
          <li>
            <span aria-current="page">{c.name}</span>
          </li>
        </ol>
      </nav>
      <h1>{c.name}</h1>
      {c.description ? <p className="lead">{c.description}</p> : null}
      {c.products.length === 0 ? <p>No products in this collection yet.</p> : <ProductGrid products={c.products} price={(p) => price(p.price)} />}
    </>
  );
}
