// What a page of one catalog item by its slug (a product, a collection) needs twice: the item
// (Next's 404 page for an unknown slug) and its metadata from the SEO helpers. Server only.
import type { Metadata } from "next";
import { toNextMetadata, type CirrusClient, type SeoMeta, type Store } from "cirrus-storefront";
import { cirrus, orNotFound, store } from "@/lib/cirrus";

/** The props Next gives a `[slug]` page. */
export type SlugProps = { params: Promise<{ slug: string }> };

/** `load(params)`: the item of the page's slug; `generateMetadata`: its SEO metadata in Next's shape. */
export function slugPage<T>(get: (client: CirrusClient, slug: string) => Promise<T>, seo: (store: Store, item: T) => SeoMeta) {
  const load = async ({ params }: SlugProps): Promise<T> => {
    const { slug } = await params;
    return orNotFound(async () => get(await cirrus(), slug));
  };
  const generateMetadata = async (props: SlugProps): Promise<Metadata> => {
    const [s, item] = await Promise.all([store(), load(props)]);
    return toNextMetadata(seo(s, item));
  };
  return { load, generateMetadata };
}
