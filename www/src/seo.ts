// The head of each view: title, description, canonical URL, Open Graph and JSON-LD
// from the SDK's SEO helpers (homeSeo, productSeo, collectionSeo, pageSeo). The dev
// server renders the same tags, with the same core, into the first page it sends
// (server/src/www/head.rs); this keeps them right as the shopper navigates.
import type { SeoMeta } from 'cirrus-storefront';

function meta(selector: string, make: () => HTMLElement): HTMLElement {
  let el = document.head.querySelector<HTMLElement>(selector);
  if (!el) {
    el = make();
    document.head.appendChild(el);
  }
  return el;
}

const named = (attr: 'name' | 'property', key: string) => meta(`meta[${attr}="${key}"]`, () => {
  const m = document.createElement('meta');
  m.setAttribute(attr, key);
  return m;
});

/** Put `seo` in the head (null: a view without one, e.g. checkout: title only). */
export function applySeo(seo: SeoMeta | null, title?: string): void {
  for (const el of document.head.querySelectorAll('link[rel="canonical"], meta[property^="og:"], script[type="application/ld+json"]')) {
    if (!seo) el.remove();
  }
  if (!seo) {
    if (title) document.title = title;
    return;
  }
  document.title = seo.title;
  named('name', 'description').setAttribute('content', seo.description);
  meta('link[rel="canonical"]', () => {
    const l = document.createElement('link');
    l.rel = 'canonical';
    return l;
  }).setAttribute('href', seo.canonicalUrl);
  const og = seo.openGraph;
  const props: [string, string | null][] = [['type', og.type], ['title', og.title], ['description', og.description], ['url', og.url],
    ['site_name', og.siteName], ['image', og.image], ['image:alt', og.imageAlt]];
  for (const [k, v] of props) {
    if (v === null) document.head.querySelector(`meta[property="og:${k}"]`)?.remove();
    else named('property', `og:${k}`).setAttribute('content', v);
  }
  // jsonLd is one JSON object, escaped for a script element by the SDK; as text it is never parsed as HTML anyway.
  meta('script[type="application/ld+json"]', () => {
    const s = document.createElement('script');
    s.type = 'application/ld+json';
    return s;
  }).textContent = seo.jsonLd;
}
