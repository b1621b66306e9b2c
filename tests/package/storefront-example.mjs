// The README's "Storefront helpers" example, run as-is by scripts/test.d/40-pkg.sh against a dev server
// (CIRRUS_BASE_URL and CIRRUS_API_KEY come from the environment).
import { init, CirrusClient, productOptions, variantSelection, storePath, resolveStorePath, productSeo } from "cirrus-storefront/client";

await init();
const client = new CirrusClient({ baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
const store = await client.store(); // routeProducts, routeCollections, routePages, frontendDomain, …

// Store URLs: a product's path under the store's routes, and back.
const { products } = await client.products({ limit: 50 });
const product = products.find((p) => p.options.length === 2);
const path = storePath(store, { kind: "product", slug: product.slug });
const { kind, slug } = resolveStorePath(store, `${path}?utm_source=mail`);
console.log(`${path} -> ${kind} ${slug}`); // "/products/… -> product …"

// Variant selection: with a value of the first option chosen, which values of each option
// exist and are in stock (hydrogen-react's getProductOptions matrix).
const [first, second] = product.options;
const matrix = productOptions(product, { [first.name]: first.values[0].value });
for (const option of matrix.options) {
  const values = option.values.map((v) => v.value + (v.available ? "" : v.exists ? " (sold out)" : " (none)"));
  console.log(`${option.name}: ${values.join(", ")}`); // "Size: S, M (sold out), L"
}
// Clicking a value of the second option: its `selection` names a variant (or none).
const click = matrix.options.find((o) => o.name === second.name).values[0];
const { selectedVariant } = productOptions(product, click.selection);
console.log(selectedVariant ? `selected ${selectedVariant.id} at ${selectedVariant.price}` : `no variant is ${JSON.stringify(click.selection)}`);
// A variant's own selection (e.g. to preselect the first one in stock).
const firstAvailable = matrix.firstAvailableVariant ?? product.variants[0];
console.log(JSON.stringify(variantSelection(product, firstAvailable.id))); // {"Color":"…","Size":"…"}

// SEO metadata for the <head>: plain-text title and description, canonical URL, Open Graph,
// and JSON-LD that can go as-is into <script type="application/ld+json">.
const seo = productSeo(store, product);
console.log(`${seo.title} | ${seo.canonicalUrl} | og:${seo.openGraph.type}`);
const ld = JSON.parse(seo.jsonLd);
console.log(`${ld["@type"]} with ${ld.offers.length} offers, first ${ld.offers[0].price} ${ld.offers[0].priceCurrency}`);
