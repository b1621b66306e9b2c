// Real paths under the store's route settings (routeProducts, routeCollections,
// routePages: /products/:slug, /collections/:slug, /pages/:slug), plus /checkout,
// /order and /search (the search in the query string), navigated with the History API.
// The dev server answers every one of these
// paths with the page, so a reload or a shared link opens the same view. Links of old
// bookmarks (#/products/x) are replaced by their path at start-up.
import { resolveStorePath, storePath } from 'cirrus-storefront';
import type { StoreSettings } from 'cirrus-storefront';

export type Route =
  | { name: 'home' }
  | { name: 'product'; slug: string }
  | { name: 'collection'; slug: string }
  | { name: 'page'; slug: string }
  | { name: 'checkout' }
  | { name: 'order' }
  | { name: 'search' }
  | { name: 'notfound'; path: string };

let store: StoreSettings | null = null;

/** Use the store's route settings (the SDK's storePath / resolveStorePath read them). */
export function useRoutes(settings: StoreSettings): void {
  store = settings;
}

function settings(): StoreSettings {
  if (!store) throw new Error('router: useRoutes(store) first');
  return store;
}

export const href = {
  home: () => '/',
  product: (slug: string) => storePath(settings(), { kind: 'product', slug }),
  collection: (slug: string) => storePath(settings(), { kind: 'collection', slug }),
  page: (slug: string) => storePath(settings(), { kind: 'page', slug }),
  checkout: () => '/checkout',
  order: () => '/order',
};

/** The view at `pathname`: the store's paths by the SDK's resolveStorePath, and the app's own. */
export function parseRoute(pathname: string): Route {
  if (pathname === '/checkout') return { name: 'checkout' };
  if (pathname === '/order') return { name: 'order' };
  if (pathname === '/search') return { name: 'search' };
  const r = resolveStorePath(settings(), pathname);
  switch (r?.kind) {
    case 'home': return { name: 'home' };
    case 'product': return { name: 'product', slug: r.slug };
    case 'collection': return { name: 'collection', slug: r.slug };
    case 'page': return { name: 'page', slug: r.slug };
    default: return { name: 'notfound', path: pathname };
  }
}

/** An old `#/…` link: its path, put in place of the hash (no reload, no history entry). */
export function redirectLegacyHash(): void {
  if (location.hash.startsWith('#/')) history.replaceState(history.state, '', location.hash.slice(1) || '/');
}

/** Go to `to` (a path of this site) and show its view. */
export function navigate(to: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listener?.();
}

let listener: (() => void) | null = null;

/**
 * Calls `onRoute` on back/forward and on clicks of same-site links (which become
 * History API navigations instead of page loads). Links to the API, to files, to
 * another window or clicked with a modifier are left to the browser, and so are
 * in-page anchors (`#main`).
 */
export function listen(onRoute: () => void): void {
  listener = onRoute;
  window.addEventListener('popstate', onRoute);
  // an old #/ link followed from this page (same document: no reload)
  window.addEventListener('hashchange', () => {
    if (!location.hash.startsWith('#/')) return;
    redirectLegacyHash();
    onRoute();
  });
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/') || /\.[a-z0-9]+$/i.test(url.pathname)) return;
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
    e.preventDefault();
    if (url.pathname + url.search === location.pathname + location.search) return;
    navigate(url.pathname + url.search);
  });
}
