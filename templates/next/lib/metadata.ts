// STOPGAP until the package's Next-shaped metadata helper (issue 32, sdk32): the SEO
// helpers' SeoMeta (title, description, canonical URL, Open Graph) as Next's Metadata.
import type { Metadata } from "next";
import type { SeoMeta } from "cirrus-storefront";

const NEXT_OG_TYPES = new Set(["website", "article"]);

export function toMetadata(seo: SeoMeta): Metadata {
  const og = seo.openGraph;
  return {
    title: seo.title,
    description: seo.description,
    alternates: { canonical: seo.canonicalUrl },
    openGraph: {
      ...(NEXT_OG_TYPES.has(og.type) ? { type: og.type as "website" } : {}),
      title: og.title,
      description: og.description,
      url: og.url,
      siteName: og.siteName,
      images: og.image ? [{ url: og.image, alt: og.imageAlt ?? undefined }] : undefined,
    },
  };
}
