// The storefront helpers (variant selection, store URLs, SEO) on real dev-server data, through
// the installed package. Shared by smoke.mjs (root entry: node consumer and the esbuild bundle
// in headless Chromium) and storefront-client.mjs (the cirrus-storefront/client entry in node).
// `lib` is the imported entry (after init()); `check(name, ok, detail)` throws on failure.
export async function storefrontChecks(lib, client, check) {
  const rejects = (f) => {
    try { f(); } catch (e) { return e; }
    throw new Error("expected a throw");
  };
  const invalid = (e, re) => e instanceof lib.CirrusError && e.code === "invalid_argument" && re.test(e.message);
  const inStock = (v) => v.stockStatus === "IN_STOCK" && v.stockQuantity > 0;
  const store = await client.store();
  const products = [];
  for await (const p of client.allProducts({ pageSize: 100 })) products.push(p);
  const withOptions = products.filter((p) => p.options.length >= 2);
  check("storefront: the seed has products with two options", withOptions.length > 0);

  // Variant selection: the matrix agrees with the variants' attributes and stock.
  let values = 0;
  for (const p of products) {
    const m = lib.productOptions(p);
    check("storefront: no selection names no variant", p.options.length === 0 || m.selectedVariant === null, p.slug);
    check("storefront: firstAvailableVariant", (m.firstAvailableVariant?.id ?? null) === (p.variants.find(inStock)?.id ?? null), p.slug);
    for (const o of m.options) {
      for (const x of o.values) {
        const has = p.variants.filter((v) => v.attributes[o.name] === x.value);
        check("storefront: exists/available agree with the variants", x.exists === has.length > 0 && x.available === has.some(inStock) && !x.selected, `${p.slug} ${o.name}=${x.value}`);
        values++;
      }
    }
    for (const v of p.variants) {
      const sel = lib.variantSelection(p, v.id);
      const named = lib.productOptions(p, sel).selectedVariant;
      check("storefront: every variant is named by its own selection", JSON.stringify(named) === JSON.stringify(v), `${p.slug} ${v.id}`);
    }
  }
  check("storefront: option values checked", values > products.length, String(values));
  const p = withOptions[0];
  const [first, second] = p.options;
  const partial = lib.productOptions(p, { [first.name]: first.values[0].value });
  const col = partial.options.find((o) => o.name === second.name);
  for (const x of col.values) {
    const has = p.variants.filter((v) => v.attributes[first.name] === first.values[0].value && v.attributes[second.name] === x.value);
    check("storefront: a partial selection narrows the other options", x.exists === has.length > 0 && x.available === has.some(inStock), `${second.name}=${x.value}`);
  }
  check("storefront: an unknown option is invalid_argument", invalid(rejects(() => lib.productOptions(p, { Nope: "x" })), /has no option "Nope"/));
  check("storefront: a bad product is invalid_argument naming the path", invalid(rejects(() => lib.productOptions({ ...p, variants: [{}] })), /^product\.variants\[0\]/));

  // Store URLs under the seed's routes (/products, /collections, /pages).
  const cols = await client.collections();
  const pages = await client.pages();
  const nested = cols.find((c) => c.breadcrumb.length > 1) ?? cols[0];
  const resources = [
    { kind: "product", slug: p.slug, path: `/products/${p.slug}` },
    { kind: "collection", slug: nested.slug, path: `/collections/${nested.slug}` },
    { kind: "page", slug: pages[0].slug, path: `/pages/${pages[0].slug}` },
  ];
  for (const { path, ...r } of resources) {
    check("storefront: storePath", lib.storePath(store, r) === path, `${lib.storePath(store, r)} != ${path}`);
    check("storefront: resolveStorePath", JSON.stringify(lib.resolveStorePath(store, `${path}?q=1#x`)) === JSON.stringify(r), path);
  }
  check("storefront: slugs are percent-encoded", lib.storePath(store, { kind: "product", slug: "a b/ü" }) === "/products/a%20b%2F%C3%BC");
  check("storefront: home", lib.resolveStorePath(store, "/")?.kind === "home" && lib.storePath(store, { kind: "home" }) === "/");
  check("storefront: unknown paths name nothing", lib.resolveStorePath(store, "/products") === null && lib.resolveStorePath(store, "/cart/x") === null);
  check("storefront: a resource's null/undefined slug reads as absent, other members are ignored",
    lib.storePath(store, { kind: "home", slug: undefined }) === "/" && lib.storePath(store, { kind: "home", slug: null }) === "/"
      && lib.storePath(store, { kind: "page", slug: "about", title: "About", position: 1 }) === "/pages/about");
  check("storefront: a resource that is not an object is invalid_argument", invalid(rejects(() => lib.storePath(store, [])), /^resource: expected an object, got an array$/));
  check("storefront: a resource without its slug is invalid_argument", invalid(rejects(() => lib.storePath(store, { kind: "product" })), /^resource\.slug is required for a product$/));
  check("storefront: canonicalUrl", lib.canonicalUrl(store, "/pages/about") === `http://${store.frontendDomain}/pages/about`, lib.canonicalUrl(store, "/pages/about"));

  // SEO: JSON-LD parses, is safe in a <script>, and says what the data says.
  const safe = (m) => !/[<>&\u2028\u2029]/.test(m.jsonLd) && m.title.length > 0 && m.title.length <= 70 && m.description.length > 0 && m.description.length <= 160;
  const ps = lib.productSeo(store, p);
  const ld = JSON.parse(ps.jsonLd);
  check("storefront: productSeo", safe(ps) && ps.canonicalUrl === lib.canonicalUrl(store, `/products/${p.slug}`) && ps.openGraph.type === "product" && ld["@type"] === "Product", ps.jsonLd);
  check("storefront: one Offer per variant with the wire price and stock",
    ld.offers.length === p.variants.length && ld.offers.every((o, i) => o.sku === p.variants[i].id && o.price === p.variants[i].price && o.priceCurrency === store.defaultCurrency
      && o.availability === (inStock(p.variants[i]) ? "https://schema.org/InStock" : "https://schema.org/OutOfStock")), ps.jsonLd);
  const xss = await client.productBySlug("xss-probe");
  const xs = lib.productSeo(store, xss);
  check("storefront: HTML in a description is stripped, JSON-LD stays in its script", safe(xs) && !/script|onerror/.test(xs.description) && !/<\/script/i.test(xs.jsonLd), xs.jsonLd);
  const cs = lib.collectionSeo(store, nested);
  const crumbs = JSON.parse(cs.jsonLd)["@graph"][1].itemListElement;
  check("storefront: collectionSeo breadcrumb", safe(cs) && crumbs.length === nested.breadcrumb.length && crumbs.every((c, i) => c.position === i + 1 && c.name === nested.breadcrumb[i].name), cs.jsonLd);
  const pgs = lib.pageSeo(store, pages[0]);
  check("storefront: pageSeo", safe(pgs) && JSON.parse(pgs.jsonLd)["@type"] === "WebPage" && pgs.openGraph.image === null, pgs.jsonLd);
  const hs = lib.homeSeo(store);
  const graph = JSON.parse(hs.jsonLd)["@graph"];
  check("storefront: homeSeo", safe(hs) && hs.canonicalUrl === `http://${store.frontendDomain}/` && graph[0]["@type"] === "WebSite" && graph[1]["@type"] === "Organization", hs.jsonLd);
  check("storefront: bad store settings are invalid_argument", invalid(rejects(() => lib.homeSeo({ ...store, frontendDomain: "" })), /^store\.frontendDomain: "" is empty/));
}
