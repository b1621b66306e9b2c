// SEO metadata (`SeoMeta`, from homeSeo/productSeo/collectionSeo/pageSeo: src/storefront/seo.rs)
// in the shape of Next.js's `Metadata` (`generateMetadata`): Open Graph images as
// `openGraph.images`, the canonical URL as `alternates.canonical`. A renaming of fields, no
// rule: every value is the SEO helper's. Plain JS, usable before `init()`.
import type { SeoMeta } from "./cirrus_storefront.js";

/** The Open Graph types Next.js's `Metadata.openGraph.type` takes that the SEO helpers give. */
type NextOgType = "website" | "article";

/** `toNextMetadata`'s result: assignable to Next.js's `Metadata`. */
export interface NextMetadata {
  title: string;
  description: string;
  alternates: { canonical: string };
  openGraph: {
    /** Absent for a type Next.js does not know (`product`): that one is in `other["og:type"]`. */
    type?: NextOgType;
    title: string;
    description: string;
    url: string;
    siteName: string;
    images: { url: string; alt?: string }[];
  };
  /** Extra `<meta name content>` tags: `og:type` when Next.js's `openGraph.type` cannot carry it. */
  other: Record<string, string>;
}

/** `seo` (a `SeoMeta` of the SEO helpers) as Next.js's `Metadata`. The JSON-LD (`seo.jsonLd`) goes in a `<script type="application/ld+json">` of the page. */
export function toNextMetadata(seo: SeoMeta): NextMetadata {
  const og = seo.openGraph;
  const known = og.type === "website" || og.type === "article";
  return {
    title: seo.title,
    description: seo.description,
    alternates: { canonical: seo.canonicalUrl },
    openGraph: {
      ...(known ? { type: og.type as NextOgType } : {}),
      title: og.title,
      description: og.description,
      url: og.url,
      siteName: og.siteName,
      images: og.image === null ? [] : [og.imageAlt === null ? { url: og.image } : { url: og.image, alt: og.imageAlt }],
    },
    other: known ? {} : { "og:type": og.type },
  };
}
