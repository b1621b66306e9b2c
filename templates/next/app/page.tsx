// Home: the store's featured products, then its collections, streamed as each is ready.
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { homeSeo, toNextMetadata } from "cirrus-storefront";
import { JsonLd } from "@/components/json-ld";
import { ProductGrid } from "@/components/product-card";
import { cirrus, priceFormat, store } from "@/lib/cirrus";

export async function generateMetadata(): Promise<Metadata> {
  return toNextMetadata(homeSeo(await store()));
}

export default async function Home() {
  const s = await store();
  return (
    <>
      <JsonLd json={homeSeo(s).jsonLd} />
      <h1>{s.homeMetaTitle || s.name}</h1>
      <p className="lead">{s.homeMetaDescription}</p>
      <section aria-labelledby="featured-title">
        <h2 id="featured-title">New in</h2>
        <Suspense fallback={<p className="grid-placeholder">Loading products…</p>}>
          <Featured />
        </Suspense>
      </section>
      <section aria-labelledby="collections-title">
        <h2 id="collections-title">Collections</h2>
        <Suspense fallback={<p>Loading collections…</p>}>
          <Collections />
        </Suspense>
      </section>
    </>
  );
}

async function Featured() {
  const [{ products }, price] = await Promise.all([(await cirrus()).products({ limit: 8, minimal: true }), priceFormat()]);
  return <ProductGrid products={products} price={(p) => price(p.price)} />;
}

async function Collections() {
  const collections = (await (await cirrus()).collections()).filter((c) => c.parent === null);
  return (
    <ul className="pills">
      {collections.map((c) => (
        <li key={c.slug}>
          <Link prefetch={false} href={`/collections/${encodeURIComponent(c.slug)}`}>{c.name}</Link>
        </li>
      ))}
    </ul>
  );
}
