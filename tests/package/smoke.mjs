// The package's behaviour as a consumer sees it, shared by the node ESM consumer
// (node-consumer.mjs) and the esbuild browser bundle (browser-consumer.mjs).
// `lib` is the imported `cirrus-storefront` module; throws on the first failure.
import { storefrontChecks } from "./storefront-checks.mjs";

export async function smoke(lib, { baseUrl, apiKey, initArg, checkoutWasm }) {
  const passed = [];
  const check = (name, ok, detail = "") => {
    if (!ok) throw new Error(`FAILED: ${name} ${detail}`);
    passed.push(name);
  };
  const rejects = async (p) => {
    try { await p; } catch (e) { return e; }
    throw new Error("expected a rejection");
  };

  // Before init(): a clear CirrusError, not a TypeError from the glue.
  let early;
  try { new lib.CirrusClient({ baseUrl, apiKey }); } catch (e) { early = e; }
  check("call before init throws CirrusError", early instanceof lib.CirrusError && early.code === "invalid_state", String(early));
  // Every function export (classes, their static methods, helpers) is guarded.
  const notGuarded = [];
  const tried = [];
  const guarded = (...calls) => {
    for (const call of calls) {
      try { call(); } catch (e) { if (e instanceof lib.CirrusError && e.code === "invalid_state") return true; }
    }
    return false;
  };
  for (const [name, value] of Object.entries(lib)) {
    if (typeof value !== "function" || ["init", "initSync", "isReady", "CirrusError", "CacheShort", "CacheLong", "CacheNone", "CacheCustom", "minorUnits", "toNextMetadata"].includes(name)) continue;
    // As a constructor, else as a function: either way a CirrusError, never a TypeError.
    tried.push(name);
    if (!guarded(() => new value(), () => value())) notGuarded.push(name);
    for (const k of Object.getOwnPropertyNames(value)) {
      if (k === "prototype" || typeof value[k] !== "function") continue;
      if (!guarded(() => value[k]())) notGuarded.push(`${name}.${k}`);
    }
  }
  check("the guard check saw the exports", tried.includes("CirrusClient") && tried.length >= 3, tried.join(", "));
  check("every export throws CirrusError before init", notGuarded.length === 0, notGuarded.join(", "));
  // The cache presets are plain values: a module may make them before init().
  check("cache presets need no init", lib.CacheShort().maxAgeMs === 1000 && lib.CacheNone() === "no-store", JSON.stringify(lib.CacheShort()));
  // minorUnits (js/money.ts) is plain JS too: an integer passes as is, a decimal is refused, never rounded.
  let decimal;
  try { lib.minorUnits(5.99); } catch (e) { decimal = e; }
  check("minorUnits needs no init and refuses a decimal", lib.minorUnits(1999) === 1999 && decimal instanceof lib.CirrusError
    && decimal.code === "invalid_argument" && decimal.message.includes("got 5.99"), String(decimal));
  // toNextMetadata (js/next-metadata.ts) renames fields: plain JS, Next.js's Metadata shape (og:image as openGraph.images).
  const og = { type: "product", title: "T", description: "D", url: "https://s.example/p", siteName: "S", image: "https://s.example/i.png", imageAlt: "I" };
  const meta = lib.toNextMetadata({ title: "T", description: "D", canonicalUrl: "https://s.example/p", openGraph: og, jsonLd: "{}" });
  check("toNextMetadata needs no init and gives Next's shape",
    meta.alternates.canonical === "https://s.example/p" && meta.openGraph.images[0].url === og.image && meta.openGraph.images[0].alt === "I"
      && !("type" in meta.openGraph) && meta.other["og:type"] === "product"
      && lib.toNextMetadata({ title: "", description: "", canonicalUrl: "", openGraph: { ...og, type: "website", image: null, imageAlt: null }, jsonLd: "" }).openGraph.type === "website",
    JSON.stringify(meta));
  // The not-initialised error (`early`, above) names the entry whose init() is missing.
  check("the not-initialised error names the entry", early?.code === "invalid_state" && /^cirrus-storefront(\/client)? is not initialised: call `await init\(\)` imported from "cirrus-storefront(\/client)?"/.test(early.message), String(early?.message));

  await lib.init(initArg);
  await lib.init(initArg); // idempotent
  check("init is idempotent", lib.isReady());

  const client = new lib.CirrusClient({ baseUrl, apiKey });
  const page = await client.products({ limit: 7, includePagination: true });
  check("products", page.products.length === 7 && page.pagination.limit === 7);
  const p = page.products[0];
  check("nullable fields are null or values, never missing", "metaTitle" in p && p.metaTitle !== undefined && "compareAtPrice" in p.variants[0]);
  const min = await client.products({ limit: 3, minimal: true });
  check("minimal products", min.products.length === 3 && !("variants" in min.products[0]) && !("pagination" in min));
  check("productBySlug", (await client.productBySlug(p.slug)).id === p.id);
  check("pages", (await client.pages()).length > 0);
  const cols = await client.collections();
  check("collections", cols.length > 0);
  check("collectionBySlug", (await client.collectionBySlug(cols[0].slug)).id === cols[0].id);
  check("collection(id)", (await client.collection(cols[0].id)).slug === cols[0].slug);
  const store = await client.store();
  check("store", typeof store.defaultCurrency === "string");
  const rates = await client.shippingRates({ variantIds: [p.variants[0].id], country: "US" });
  check("shippingRates", rates[0].variantId === p.variants[0].id);

  let n = 0;
  for await (const x of client.allProducts({ pageSize: 50, minimal: true })) n += x.id ? 1 : 0;
  check("allProducts iterates every product", n === page.pagination.total, `${n} vs ${page.pagination.total}`);

  const nf = await rejects(client.productBySlug("no-such-product"));
  check("404 is CirrusError not_found", nf instanceof lib.CirrusError && nf instanceof Error && nf.code === "not_found" && nf.status === 404 && typeof nf.requestId === "string");
  const bad = await rejects(client.products({ limit: 0 }));
  check("limit 0 is invalid_argument", bad instanceof lib.CirrusError && bad.code === "invalid_argument" && /limit/.test(bad.message));
  let badKey;
  try { new lib.CirrusClient({ baseUrl, apiKey: "ak_nope" }); } catch (e) { badKey = e; }
  check("bad apiKey is invalid_argument", badKey instanceof lib.CirrusError && badKey.code === "invalid_argument");
  const ctl = new AbortController();
  const pending = client.pages(ctl.signal);
  ctl.abort();
  const ab = await rejects(pending);
  check("abort", ab instanceof lib.CirrusError && ab.code === "aborted");
  // storageKey: the key of a cart kept in a storage, else null (the .d.ts says `string | null`).
  const kept = new Map();
  const storage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => void kept.set(k, v), removeItem: (k) => void kept.delete(k) };
  const keys = [new lib.Cart("USD").storageKey, lib.Cart.persistent("USD", { key: "smoke.cart", storage }).storageKey];
  check("Cart.storageKey: the key of a cart kept in a storage, null for one in memory", keys[0] === null && keys[1] === "smoke.cart", JSON.stringify(keys));
  // A currency that is not a string: CirrusError naming the type expected and the value given
  // (the glue's own string passing threw a TypeError in node, and coerced 840 to "840" in browsers).
  const refusal = (f) => { try { f(); } catch (e) { return e instanceof lib.CirrusError && e.code === "invalid_argument" ? e.message : String(e); } return "no error"; };
  const msgs = [refusal(() => new lib.Cart()), refusal(() => lib.formatMoney(100, 840)), refusal(() => lib.Cart.persistent(null))];
  check("a currency that is not a string is invalid_argument naming what was given", JSON.stringify(msgs) === JSON.stringify([
    'currency must be a string such as "USD", got undefined', 'currency must be a string such as "USD", got the number 840', 'currency must be a string such as "USD", got null',
  ]), JSON.stringify(msgs));
  // Every argument of the wrong JS type: the type expected and the value given, never the
  // glue's TypeError or a number silently read as its digits.
  const cart = new lib.Cart("USD");
  const wrong = [
    refusal(() => cart.remove(5)),
    refusal(() => cart.line({ id: "v1" })),
    refusal(() => cart.format(100, 5)),
    refusal(() => lib.formatMoney(100, "USD", ["en-US"])),
    refusal(() => lib.Cart.persistent("USD", { key: 7, storage })),
    refusal(() => lib.Cart.persistent("USD", { onChange: "log", storage })),
    refusal(() => cart.subscribe(null)),
    refusal(() => new lib.CirrusClient({ baseUrl, apiKey, fetch: "fetch" })),
  ];
  check("arguments of the wrong JS type name the type expected and the value given", JSON.stringify(wrong) === JSON.stringify([
    "variantId must be a string, got the number 5",
    'variantId must be a string, got the object {"id":"v1"}',
    'locale must be a string such as "en-US", got the number 5',
    'locale must be a string such as "en-US", got the object ["en-US"]',
    "options.key must be a non-empty string, got the number 7",
    'options.onChange must be a function, got the string "log"',
    "listener must be a function, got null",
    'options.fetch must be a function, got the string "fetch"',
  ]), JSON.stringify(wrong));
  // The display locale (issue 34): the first candidate Intl supports, else "en-US"; settings that
  // name no language ("C", "POSIX", "") are passed over, POSIX names read as tags. A bad locale given
  // to formatMoney itself is still invalid_argument, naming it and pointing at preferredLocale.
  const picks = [
    lib.preferredLocale(["C", "de-DE"]), lib.preferredLocale("C"), lib.preferredLocale(""), lib.preferredLocale(["", "POSIX", "C.UTF-8"]),
    lib.preferredLocale("en_US"), lib.preferredLocale(["fr_CA.UTF-8", "en-US"]), lib.preferredLocale([]), lib.preferredLocale(["not a locale!", "ja-jp"]),
    lib.preferredLocale(null),
  ];
  check("preferredLocale: the first usable candidate, else en-US", JSON.stringify(picks) === JSON.stringify([
    "de-DE", "en-US", "en-US", "en-US", "en-US", "fr-CA", "en-US", "ja-JP", typeof navigator === "object" && navigator.languages?.length ? lib.preferredLocale(navigator.languages) : "en-US",
  ]), JSON.stringify(picks));
  check("formatMoney in the preferred locale of a C-locale browser", lib.formatMoney(lib.minorUnits(3299), "USD", lib.preferredLocale(["C"])) === "$32.99");
  const badLocales = [
    refusal(() => lib.formatMoney(100, "USD", "C")), refusal(() => lib.formatMoney(100, "USD", "")), refusal(() => lib.formatMoney(100, "USD", "en_US")),
    refusal(() => lib.preferredLocale(5)), refusal(() => lib.preferredLocale(["en-US", 5])),
  ];
  check("a bad locale given to formatMoney is invalid_argument naming it; preferredLocale takes strings", badLocales.length === 5
    && badLocales.slice(0, 3).every((m, i) => m.startsWith(`locale ${JSON.stringify(["C", "", "en_US"][i])} is not usable: `) && m.endsWith("(preferredLocale() picks one this runtime supports)"))
    && badLocales[3] === 'candidates must be a locale string or an array of them such as ["de-DE", "en-US"], got the number 5'
    && badLocales[4] === badLocales[3], JSON.stringify(badLocales));
  const slug = await rejects(client.productBySlug(42));
  check("a slug that is not a string names it", slug instanceof lib.CirrusError && slug.message === "slug must be a string, got the number 42", String(slug));
  // Checkout: a wasm module of its own, loaded on the first start/resume (js/lazy-checkout.ts);
  // node reads it from disk, an esbuild bundle is told where its file loader put it.
  if (checkoutWasm !== undefined) lib.setCheckoutWasm(checkoutWasm);
  check("Checkout.clearStored() is synchronous", lib.Checkout.clearStored() === undefined && lib.Checkout.clearStored("x") === undefined);
  const adapter = { mount: async () => {}, updateAmount: async () => {}, collectToken: async () => "tok", handleNextAction: async () => {} };
  check("Checkout.resume() loads the checkout module (nothing stored: null)", (await lib.Checkout.resume(client, { adapter, storage: null })) === null);
  const noAdapter = await rejects(lib.Checkout.start(client, { items: [], currency: "USD" }));
  check("the checkout module's errors are the package's CirrusError", noAdapter instanceof lib.CirrusError && noAdapter.code === "invalid_argument", String(noAdapter));
  check("a plain object is no Checkout", !({} instanceof lib.Checkout));
  await storefrontChecks(lib, client, check);
  return passed;
}
