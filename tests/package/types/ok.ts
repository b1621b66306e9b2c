// Correct use that must compile with `tsc --strict` (tests/package/types/check.mjs): the
// README's examples as a TypeScript storefront writes them, typed. Each mistake-*.ts next to
// this file is one mistake that must not compile.
import {
  init,
  CirrusClient,
  CirrusError,
  Cart,
  Checkout,
  CacheShort,
  CacheLong,
  formatMoney,
  parseMoney,
  preferredLocale,
  addMoney,
  minorUnits,
  moneyToDecimal,
  currencyExponent,
  productOptions,
  variantSelection,
  storePath,
  resolveStorePath,
  productSeo,
  type CheckoutClient,
  type CheckoutState,
  type CountryCode,
  type CurrencyCode,
  type MinorUnits,
  type MinimalProduct,
  type Pagination,
  type ProcessorAdapter,
  type Product,
  type ProductsOptions,
  type ShippingAddress,
  type StaleAnswer,
  type Store,
} from "cirrus-storefront";
import * as catalog from "cirrus-storefront/client";

// The README reads these from `process.env`; a TypeScript app checks they are set first.
declare const baseUrl: string;
declare const apiKey: string;

/** The README's first example (tests/package/readme-example.mjs). */
export async function readmeExample(): Promise<string[]> {
  const out: string[] = [];
  await init();
  const client = new CirrusClient({ baseUrl, apiKey, cacheTtlMs: 30_000 });

  const { products, pagination } = await client.products({ limit: 12, minimal: true, includePagination: true });
  products satisfies MinimalProduct[];
  pagination satisfies Pagination;
  out.push(`${products.length} of ${pagination.total} products; first: ${products[0].name} at ${products[0].price}`);

  const product = await client.productBySlug(products[0].slug);
  out.push(product.variants.map((v) => `${v.id}: ${v.price}`).join(", "));

  const cart = new Cart("USD");
  const variant = product.variants.find((v) => v.stockQuantity > 0);
  if (!variant) throw new Error(`${product.name} is sold out`);
  cart.add(product, variant.id, 1);
  const { subtotal, itemCount } = cart.totals;
  const locale: string = preferredLocale();
  out.push(`${itemCount} item(s), subtotal ${formatMoney(subtotal, "USD", locale)}`);

  const [cheapest] = cart.shippingOptions(await client.shippingRates({ variantIds: [variant.id], country: "US" }));
  out.push(cheapest ? `cheapest shipping: ${cheapest.rate.name}, total ${formatMoney(cheapest.estimatedTotal, "USD", locale)}` : "no rate ships this order to US");

  const names: string[] = [];
  for await (const p of client.allProducts({ pageSize: 100, minimal: true })) names.push(p.name);
  out.push(`iterated ${names.length} products`);

  try {
    await client.productBySlug("no-such-product");
  } catch (e) {
    if (!(e instanceof CirrusError)) throw e;
    out.push(`${e.code} (HTTP ${e.status}, request ${e.requestId})`);
  }

  const ctl = new AbortController();
  const pending = client.store(ctl.signal);
  ctl.abort();
  await pending.then(() => out.push("store(): answered"), (e: CirrusError) => out.push(`store(): ${e.code}`));
  return out;
}

/** The README's cache example (tests/sdk/cache-example.mjs), through cirrus-storefront/client. */
export async function cacheExample(): Promise<void> {
  await catalog.init();
  const client = new catalog.CirrusClient({ baseUrl, apiKey, cache: catalog.CacheShort() });
  const first = await client.products({ limit: 12, minimal: true });
  first.products satisfies MinimalProduct[];
  const store = await client.store({ cache: CacheLong() });
  store.name satisfies string;
  const fresh = await client.products({ limit: 12, minimal: true }, { cache: "no-store", fetchOptions: { next: { revalidate: 60, tags: ["products"] } } });
  void (fresh !== first);
  let offline = false;
  const resilient = new CirrusClient({
    baseUrl,
    apiKey,
    cache: { maxAgeMs: 100, staleIfErrorMs: 86_400_000 },
    fetch: (request, init) => (offline ? Promise.reject(new TypeError("offline")) : fetch(request, init)),
  });
  const pages = await resilient.pages();
  offline = true;
  const onStale = ({ reason, error }: StaleAnswer) => console.log(`stale answer: ${reason} (${error instanceof CirrusError ? error.code : "?"})`);
  void (pages === (await resilient.pages({ onStale })));
  void CacheShort;
}

/** The README's storefront helpers example (tests/package/storefront-example.mjs). */
export async function storefrontExample(client: catalog.CirrusClient): Promise<void> {
  const store = await client.store();
  const { products } = await client.products({ limit: 50 });
  const product = products.find((p) => p.options.length === 2);
  if (!product) return;
  const path = storePath(store, { kind: "product", slug: product.slug });
  const resource = resolveStorePath(store, `${path}?utm_source=mail`);
  if (resource && resource.kind === "product") console.log(`${path} -> ${resource.kind} ${resource.slug}`);
  const [first, second] = product.options;
  const matrix = productOptions(product, { [first.name]: first.values[0].value });
  for (const option of matrix.options) {
    const values = option.values.map((v) => v.value + (v.available ? "" : v.exists ? " (sold out)" : " (none)"));
    console.log(`${option.name}: ${values.join(", ")}`);
  }
  const click = matrix.options.find((o) => o.name === second.name)?.values[0];
  if (!click) return;
  const { selectedVariant } = productOptions(product, click.selection);
  console.log(selectedVariant ? `selected ${selectedVariant.id} at ${selectedVariant.price}` : `no variant is ${JSON.stringify(click.selection)}`);
  const firstAvailable = matrix.firstAvailableVariant ?? product.variants[0];
  console.log(JSON.stringify(variantSelection(product, firstAvailable.id)));
  const seo = productSeo(store, product);
  console.log(`${seo.title} | ${seo.canonicalUrl} | og:${seo.openGraph.type} ${seo.openGraph.image ?? ""}`);
}

/** The README's checkout example. */
export async function checkoutExample(adapter: ProcessorAdapter, address: ShippingAddress, render: (s: CheckoutState) => void): Promise<CheckoutState> {
  await init();
  const client = new CirrusClient({ baseUrl, apiKey });
  const store: Store = await client.store();
  const cart = Cart.persistent(store.defaultCurrency, { key: "shop.cart" });
  const checkout = (await Checkout.resume(client, { adapter, cart })) ?? (await Checkout.start(client, { cart, adapter }));
  checkout.subscribe((state) => render(state));
  const options = await checkout.shippingOptions("US");
  await checkout.selectShipping(options[0].rate.id, address);
  const paid = await checkout.pay({ returnUrl: "https://shop.example/checkout" });
  if (paid.state === "succeeded") console.log(`paid ${formatMoney(paid.session.amount, paid.session.currency)}`);
  return paid;
}

/** The README's server handler: one client per module. */
let shared: Promise<catalog.CirrusClient> | undefined;
const getClient = () => (shared ??= catalog.init().then(() => new catalog.CirrusClient({ baseUrl, apiKey })));
export async function GET(request: Request): Promise<Response> {
  const slug = new URL(request.url).searchParams.get("slug") ?? "";
  return Response.json(await (await getClient()).productBySlug(slug, request.signal));
}

/** The README's React Query snippet's query function, and its server component's fetches. */
export async function queryFn(client: CirrusClient, page: number, signal: AbortSignal): Promise<MinimalProduct[]> {
  const next = { next: { revalidate: 60, tags: ["catalog"] } };
  const [store, product] = await Promise.all([client.store({ fetchOptions: next }), client.productBySlug("x", { fetchOptions: next })]);
  void [store.name, product satisfies Product];
  return (await client.products({ limit: 24, offset: page * 24, minimal: true }, signal)).products;
}

/** Money: a decimal price parsed into minor units, added to the cart's; the cart's storage key. */
export function money(cart: Cart, product: Product): string {
  const minor = parseMoney(product.variants[0].price, cart.currency);
  const total = addMoney(cart.totals.subtotal, minor);
  const key: string | null = cart.storageKey;
  return `${formatMoney(total, cart.currency)} ${key ?? "(in memory)"}`;
}

/** The display locale: the browser's languages (a "C" locale passed over) or given candidates; a string back. */
export function shown(total: MinorUnits, currency: CurrencyCode, accepted: readonly string[]): string[] {
  const fromBrowser: string = preferredLocale();
  const fromHeader: string = preferredLocale(accepted);
  return [formatMoney(total, currency, fromBrowser), formatMoney(total, currency, preferredLocale(null)), formatMoney(total, currency, fromHeader), preferredLocale("en_US")];
}

/**
 * Codes and minor units: a currency read as text (configuration) is asserted a CurrencyCode (the
 * run-time check stays: an unknown code throws `invalid_argument`); the store's is typed already;
 * an integer becomes MinorUnits through minorUnits(); minor units read as plain numbers.
 */
export function codesAndMoney(cart: Cart, store: Store, fromConfig: string, country: CountryCode): string {
  const other = new Cart(fromConfig as CurrencyCode);
  const sameAsStore = new Cart(store.defaultCurrency);
  const fee: MinorUnits = minorUnits(500);
  const withFee = addMoney(cart.totals.subtotal, fee);
  const plain: number = withFee + 1;
  const line = cart.lines[0];
  const [option] = cart.shippingOptions([]);
  return [
    moneyToDecimal(withFee, cart.currency),
    currencyExponent(other.currency),
    sameAsStore.format(withFee),
    line ? formatMoney(line.lineTotal, cart.currency) : "",
    option ? formatMoney(option.price, cart.currency) : "",
    `${plain} ${country}`,
  ].join(" ");
}

/** A wrapper generic in its options (the overload without narrowing), a flag known at run time. */
export async function wrappers<O extends ProductsOptions>(client: CirrusClient, options: O, minimal: boolean): Promise<number> {
  const some = await client.products(options);
  some.products satisfies (Product | MinimalProduct)[];
  const paged = await client.products({ minimal, includePagination: true });
  let n = paged.pagination.total;
  for await (const p of client.allProducts(minimal ? { minimal: true } : undefined)) n += p.name.length;
  return n;
}

/** A storefront's own `CheckoutClient` (issue 41): a confirm answer without the members it has no value for. */
export function leanClient(client: CirrusClient): CheckoutClient {
  return {
    initiatePayment: (body) => client.initiatePayment(body),
    updatePayment: (body) => client.updatePayment(body),
    confirmPayment: async (body) => {
      const { status, paymentIntentId } = await client.confirmPayment(body);
      return { status, paymentIntentId };
    },
    shippingRates: (body) => client.shippingRates(body),
  };
}
