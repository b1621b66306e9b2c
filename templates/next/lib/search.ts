// The search index of the catalog (cirrus-storefront/search), built on the server from
// `allProducts()` and kept in Next's data cache (unstable_cache: shared by the server's
// processes, rebuilt at most every 5 minutes, or at once with `revalidateTag("search-index")`).
// The browser's copy is the same bytes at a content-hashed URL (/search-index/<hash>, served
// immutable by app/search-index/[file]/route.ts). Imported by server components only.
import { createHash } from "node:crypto";
import { unstable_cache } from "next/cache";
import { init, SearchIndex } from "cirrus-storefront/search";
import { cirrus } from "@/lib/cirrus";

/** What a hit's card shows besides what the hit carries. */
export interface HitCard {
  slug: string;
  images: { url: string; alt: string }[];
}

/** What the cache keeps: the index's bytes (base64: the cache holds JSON), their hash, and each product's card. */
interface Built {
  bytes: string;
  hash: string;
  cards: Record<string, HitCard>;
}

const build = unstable_cache(
  async (): Promise<Built> => {
    const client = await cirrus();
    const products = [];
    for await (const p of client.allProducts()) products.push(p);
    await init();
    const bytes = SearchIndex.build(products).toBytes();
    const cards: Record<string, HitCard> = {};
    for (const p of products) cards[p.id] = { slug: p.slug, images: p.images.slice(0, 1).map((i) => ({ url: i.url, alt: i.alt })) };
    return { bytes: Buffer.from(bytes).toString("base64"), hash: createHash("sha256").update(bytes).digest("hex").slice(0, 16), cards };
  },
  ["cirrus-search-index", "1"],
  { revalidate: 300, tags: ["search-index"] },
);

let loaded: { hash: string; index: SearchIndex } | undefined;

/** The index (read from the cached bytes once per hash in this process), its browser URL and the products' cards. */
export async function searchIndex(): Promise<{ index: SearchIndex; href: string; bytes: Uint8Array<ArrayBuffer>; cards: Record<string, HitCard> }> {
  const built = await build();
  const bytes = new Uint8Array(Buffer.from(built.bytes, "base64"));
  if (loaded?.hash !== built.hash) {
    await init();
    loaded = { hash: built.hash, index: SearchIndex.fromBytes(bytes) };
  }
  return { index: loaded.index, href: `/search-index/${built.hash}`, bytes, cards: built.cards };
}
