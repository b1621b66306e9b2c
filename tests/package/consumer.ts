// Type-level test of the published package: compiled with `tsc --strict --noEmit`
// in a throwaway project that installed the packed tarball (scripts/test.d/40-pkg.sh).
// Each `@ts-expect-error` line is misuse that must NOT compile; tsc fails if it does.
import {
  init,
  CirrusClient,
  CirrusError,
  type ErrorCode,
  type MinimalProduct,
  type Pagination,
  type Product,
  type Store,
} from "cirrus-storefront";

export async function typeChecks(client: CirrusClient): Promise<void> {
  await init();

  const full = await client.products({ limit: 10 });
  const p: Product = full.products[0];
  p.variants[0].compareAtPrice satisfies string | null;
  p.metaTitle satisfies string | null;
  // @ts-expect-error a nullable field is `null`, never `undefined`
  p.metaTitle satisfies string | undefined;
  // @ts-expect-error no pagination unless asked for
  full.pagination.total;

  const min = await client.products({ minimal: true, includePagination: true });
  const m: MinimalProduct = min.products[0];
  m.price satisfies string;
  const pag: Pagination = min.pagination;
  pag.hasMore satisfies boolean;
  // @ts-expect-error a minimal product has no variants
  min.products[0].variants;

  const flag: boolean = Math.random() > 0.5;
  const either = await client.products({ minimal: flag });
  // @ts-expect-error with a non-literal flag the product may be minimal
  either.products[0].variants;

  // @ts-expect-error wrong option name
  await client.products({ limt: 5 });
  // @ts-expect-error limit is a number
  await client.products({ limit: "5" });
  // @ts-expect-error a slug is a string
  await client.productBySlug(42);
  // @ts-expect-error unknown client option
  new CirrusClient({ baseUrl: "https://x.example/api/v1", apiKey: "ak_x", timeout: 5 });

  const store: Store = await client.store(new AbortController().signal);
  store.defaultCurrency satisfies string;
  const rates = await client.shippingRates({ variantIds: ["v"], country: "US" });
  rates[0].rates[0].minOrderPrice satisfies string | null;

  for await (const product of client.allProducts({ pageSize: 50 })) {
    product.variants satisfies unknown[];
  }
  for await (const product of client.allProducts({ minimal: true })) {
    product.price satisfies string;
    // @ts-expect-error minimal products from the iterator have no variants
    product.variants;
  }

  try {
    await client.productBySlug("x");
  } catch (e) {
    if (e instanceof CirrusError) {
      const code: ErrorCode = e.code;
      e.status satisfies number | null;
      e.requestId satisfies string | null;
      // @ts-expect-error codes are a closed union
      const bad: ErrorCode = "teapot";
      void code;
      void bad;
    }
  }
}

// @ts-expect-error the glue's raw wasm exports (typed `any`) are not part of the surface
export type NotPublic = import("cirrus-storefront").InitOutput;

// `cirrus-storefront/client`: the catalog client alone (its own, smaller wasm); same types.
import * as catalog from "cirrus-storefront/client";

export async function catalogOnly(): Promise<string> {
  await catalog.init();
  const c = new catalog.CirrusClient({ baseUrl: "http://127.0.0.1:8787/api/v1", apiKey: "ak_x" });
  const min = await c.products({ minimal: true });
  min.products[0] satisfies MinimalProduct;
  // @ts-expect-error the subpath has no Cart (import it from "cirrus-storefront")
  void catalog.Cart;
  return (await c.store()).name;
}

// The storefront helpers (both entries): typed arguments and results.
export function storefrontTypes(store: Store, product: Product): string {
  const m: catalog.OptionMatrix = catalog.productOptions(product);
  catalog.productOptions(product, { Size: "M" }).selectedVariant satisfies Product["variants"][number] | null;
  m.options[0].values[0].available satisfies boolean;
  m.options[0].values[0].variantId satisfies string | null;
  // @ts-expect-error a selection maps option names to string values
  catalog.productOptions(product, { Size: 1 });
  const r = catalog.resolveStorePath(store, "/products/x");
  if (r !== null && r.kind !== "home") r.slug satisfies string;
  // @ts-expect-error a resource of kind "product" needs its slug
  catalog.storePath(store, { kind: "product" });
  const seo: catalog.SeoMeta = catalog.productSeo(store, product);
  seo.openGraph.image satisfies string | null;
  return seo.jsonLd + catalog.canonicalUrl(store, "/") + catalog.storePath(store, { kind: "home" });
}
