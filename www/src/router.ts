// Hash routes, so the dev server only has to serve static files and every view
// has a URL that survives a reload: #/, #/products/:slug, #/collections/:slug,
// #/pages/:slug, #/checkout, #/order.
export type Route =
  | { name: 'home' }
  | { name: 'product'; slug: string }
  | { name: 'collection'; slug: string }
  | { name: 'page'; slug: string }
  | { name: 'checkout' }
  | { name: 'order' }
  | { name: 'notfound'; path: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  const parts = path.split('/').filter(Boolean);
  let seg: string[];
  try {
    seg = parts.map((p) => decodeURIComponent(p));
  } catch {
    return { name: 'notfound', path };
  }
  if (seg.length === 0) return { name: 'home' };
  if (seg.length === 2 && seg[0] === 'products') return { name: 'product', slug: seg[1] };
  if (seg.length === 2 && seg[0] === 'collections') return { name: 'collection', slug: seg[1] };
  if (seg.length === 2 && seg[0] === 'pages') return { name: 'page', slug: seg[1] };
  if (seg.length === 1 && seg[0] === 'checkout') return { name: 'checkout' };
  if (seg.length === 1 && seg[0] === 'order') return { name: 'order' };
  return { name: 'notfound', path };
}

export const href = {
  home: () => '#/',
  product: (slug: string) => `#/products/${encodeURIComponent(slug)}`,
  collection: (slug: string) => `#/collections/${encodeURIComponent(slug)}`,
  page: (slug: string) => `#/pages/${encodeURIComponent(slug)}`,
  checkout: () => '#/checkout',
  order: () => '#/order',
};
