"use client";
// Predictive search in the header (a client island): a plain form to /search until the field is
// focused; then the search entry (cirrus-storefront/search: its glue and .wasm, a chunk of their
// own) and the index's bytes (the content-hashed URL of lib/search.ts) load, and every keystroke
// is answered in the browser: completed queries, products, collections. The state is
// cirrus-storefront/search/store's, read with cirrus-storefront/search/react's hooks: neither
// imports any wasm, so a page loads none until the buyer focuses the field.
import Link from "next/link";
import { useId, useState } from "react";
import { useSearch, useSearchStore } from "cirrus-storefront/search/react";

/** The index from its URL, the search entry imported on first use. */
function loader(href: string) {
  return async () => {
    const [{ init, SearchIndex }, bytes] = await Promise.all([
      import("cirrus-storefront/search"),
      fetch(href).then((r) => {
        if (!r.ok) throw new Error(`GET ${href}: ${r.status}`);
        return r.arrayBuffer();
      }),
    ]);
    await init();
    return SearchIndex.fromBytes(new Uint8Array(bytes));
  };
}

export function SearchBox({ indexHref }: { indexHref: string }) {
  const store = useSearchStore({ index: loader(indexHref), suggest: true, facets: false, perPage: 5 });
  const { query, suggestions, results, status } = useSearch(store);
  const [open, setOpen] = useState(false);
  const id = useId();
  const s = open && query.trim() ? suggestions : null;
  const any = s && (s.queries.length || s.products.length || s.collections.length);
  const close = () => setOpen(false);
  return (
    <form action="/search" role="search" className="search-box" onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && close()}>
      <label htmlFor={`${id}-q`} className="visually-hidden">
        Search products
      </label>
      <input
        id={`${id}-q`}
        type="search"
        name="q"
        placeholder="Search"
        autoComplete="off"
        aria-controls={`${id}-list`}
        aria-expanded={Boolean(any)}
        value={query}
        onFocus={() => {
          setOpen(true);
          void store.load();
        }}
        onChange={(e) => {
          setOpen(true);
          void store.set({ query: e.target.value });
        }}
        onKeyDown={(e) => e.key === "Escape" && close()}
      />
      <div id={`${id}-list`} className="predictive" hidden={!any} data-status={status}>
        {s && any ? (
          <>
            <Group label="Searches" items={s.queries.map((q) => ({ key: q, href: `/search?q=${encodeURIComponent(q)}`, text: q }))} onPick={close} />
            {/* A product's page is named by its slug, which the index does not hold: app/search/product/[id] redirects. */}
            <Group label="Products" items={s.products.map((p) => ({ key: p.id, href: `/search/product/${encodeURIComponent(p.id)}`, text: p.name, product: p.id }))} onPick={close} />
            <Group label="Collections" items={s.collections.map((c) => ({ key: c.id, href: `/search?collection=${encodeURIComponent(c.id)}`, text: c.name }))} onPick={close} />
            {results && results.total > 0 ? (
              <Link prefetch={false} href={`/search?q=${encodeURIComponent(query)}`} onClick={close} className="predictive-all">
                All {results.total} results
              </Link>
            ) : null}
          </>
        ) : null}
      </div>
    </form>
  );
}

/** One kind of suggestion (a labelled list of links), nothing when there is none. */
function Group({ label, items, onPick }: { label: string; items: { key: string; href: string; text: string; product?: string }[]; onPick: () => void }) {
  if (items.length === 0) return null;
  return (
    <ul aria-label={label}>
      {items.map((i) => (
        <li key={i.key}>
          {i.product ? (
            // A full navigation: the redirect of a route handler, not a page for the client router.
            <a href={i.href} data-product={i.product}>
              {i.text}
            </a>
          ) : (
            <Link prefetch={false} href={i.href} onClick={onPick}>
              {i.text}
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
