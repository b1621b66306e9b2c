// The storefront shell: boot (config, wasm, client), header/nav/footer from the
// store configuration, the router, and the per-view loading/error handling.
import type { Page, Store } from 'cirrus-storefront';
import { h, replace, status } from './dom';
import { href, listen, parseRoute, redirectLegacyHash, useRoutes, type Route } from './router';
import { Api, CirrusError, apiBase, describeError, initSdk, loadConfig, makeClient, type DemoConfig } from './sdk';
import { dropEarly, sendEarly } from './early';
import { applySeo } from './seo';
import { homeView, collectionView, productView, pageView } from './views/catalog';
import { CartUi } from './views/cart';
import { checkoutView, orderView } from './views/checkout';
import { searchForm, searchView } from './views/search';
import type { Ctx } from './ctx';


const $ = (id: string) => document.getElementById(id) as HTMLElement;

let ctx: Ctx | null = null;
let current: AbortController | null = null;

export async function boot(): Promise<void> {
  performance.mark('cirrus:boot');
  redirectLegacyHash();
  wireSkipLink();
  let config: DemoConfig;
  let api: Api;
  try {
    // All over the network at once (the wasm and config.json are also preloaded by
    // index.html): the first view's API requests go as soon as the key is known.
    const sdk = initSdk();
    sdk.catch(() => {}); // reported below
    config = await loadConfig();
    sendEarly(apiBase(), config.apiKey, location.pathname);
    await sdk;
    api = new Api(makeClient(config));
  } catch (err) {
    // Nothing can work without the SDK: say so plainly (details go to the console).
    const why = err instanceof CirrusError ? describeError(err) : (console.error(err), 'its code failed to load. Please reload the page.');
    document.getElementById('boot-status')?.remove();
    replace($('main'), status('error', `The storefront could not start: ${why}`,
      { label: 'Reload', run: () => location.reload() }));
    return;
  }
  await loadShell(config, api);
}

/** Store configuration, collections and pages: the shell every view needs. */
async function loadShell(config: DemoConfig, api: Api): Promise<void> {
  const main = $('main');
  main.setAttribute('aria-busy', 'true');
  try {
    const [store, collections, pages] = await Promise.all([api.store(), api.collections(), api.pages()]);
    performance.mark('cirrus:shell-ready');
    useRoutes(store);
    // The boot indicator floats outside <main>: nothing has moved while the store loaded.
    document.getElementById('boot-status')?.remove();
    const cart = new CartUi(store, api, () => ctx);
    ctx = { config, api, store, collections, pages, cart, signal: new AbortController().signal, setSeo: applySeo, setTitle };
    renderHeader(store);
    renderFooter(store, pages);
    cart.mount();
    listen(() => void route());
    await route();
    dropEarly();
  } catch (err) {
    document.getElementById('boot-status')?.remove();
    main.removeAttribute('aria-busy');
    replace(main, status('error', describeError(err), { label: 'Try again', run: () => void loadShell(config, api) }));
    (main.querySelector('button') as HTMLButtonElement | null)?.focus();
  }
}

function setTitle(title: string): void {
  applySeo(null, `${title} · ${ctx!.store.name}`);
}

async function route(): Promise<void> {
  if (!ctx) return;
  current?.abort();
  current = new AbortController();
  const r = parseRoute(location.pathname);
  const view: Ctx = { ...ctx, signal: current.signal };
  const main = $('main');
  highlightNav(r);
  ctx.cart.close(false);
  await runView(main, view, r);
}

async function runView(main: HTMLElement, view: Ctx, r: Route): Promise<void> {
  main.setAttribute('aria-busy', 'true');
  replace(main, pageLoading('Loading…'));
  try {
    switch (r.name) {
      case 'home': await homeView(main, view); break;
      case 'collection': await collectionView(main, view, r.slug); break;
      case 'product': await productView(main, view, r.slug); break;
      case 'page': await pageView(main, view, r.slug); break;
      case 'checkout': await checkoutView(main, view); break;
      case 'order': await orderView(main, view); break;
      case 'search': await searchView(main, view); break;
      case 'notfound': notFound(main, view);
    }
  } catch (err) {
    if (view.signal.aborted) return;
    // A product or collection slug the store does not have: the same view as an unknown path.
    if (err instanceof CirrusError && err.code === 'not_found') {
      notFound(main, view);
      return focusHeading(main);
    }
    replace(main, status('error', describeError(err), { label: 'Try again', run: () => void runView(main, view, r) }));
    (main.querySelector('button') as HTMLButtonElement | null)?.focus();
  } finally {
    if (!view.signal.aborted) main.removeAttribute('aria-busy');
  }
  if (!view.signal.aborted) focusHeading(main);
}

/** Move focus to the new view's heading so keyboard and screen-reader users land on it. */
function focusHeading(main: HTMLElement): void {
  const h1 = main.querySelector('h1');
  if (h1) {
    h1.setAttribute('tabindex', '-1');
    h1.focus({ preventScroll: true });
  }
  window.scrollTo(0, 0);
}

function notFound(main: HTMLElement, view: Ctx): void {
  view.setTitle('Not found');
  replace(main, h('h1', null, 'Page not found'), status('empty', 'There is nothing at this address.'),
    h('p', null, h('a', { href: href.home() }, 'Back to the shop')));
}

function renderHeader(store: Store): void {
  const root = document.documentElement.style;
  // CSSOM, not style attributes: allowed by the page's CSP (style-src 'self').
  root.setProperty('--logo-h-desktop', `${clampPx(store.logoHeightDesktop, 40)}px`);
  root.setProperty('--logo-h-mobile', `${clampPx(store.logoHeightMobile, 32)}px`);
  root.setProperty('--header-pad-desktop', `${clampPx(store.headerPaddingDesktop, 20)}px`);
  root.setProperty('--header-pad-mobile', `${clampPx(store.headerPaddingMobile, 12)}px`);
  if (store.faviconUrl) document.querySelector('link[rel="icon"]')?.setAttribute('href', store.faviconUrl);
  replace($('site-header'),
    h('a', { class: 'brand', href: href.home() },
      // width/height: the box is reserved before the logo loads (its CSS height is the store's;
      // the attributes give the aspect ratio, square unless the file says otherwise).
      store.logoUrl ? h('img', { src: store.logoUrl, alt: '', class: 'logo', width: 40, height: 40 }) : null,
      h('span', null, store.name)),
    h('a', { class: 'header-contact', href: `mailto:${store.contactEmail}` }, store.contactEmail),
    h('span', { class: 'header-spacer' }),
    searchForm(),
    ctx!.cart.button());
  const nav = $('collection-nav');
  const roots = ctx!.collections.filter((c) => c.parent === null);
  replace(nav, h('ul', null,
    h('li', null, h('a', { href: href.home(), 'data-route': 'home' }, 'All products')),
    roots.map((c) => h('li', null, h('a', { href: href.collection(c.slug), 'data-collection': c.slug }, c.name)))));
}

function renderFooter(store: Store, pages: Page[]): void {
  const hours = `Mon–Fri ${store.businessHoursWeekdayOpen}–${store.businessHoursWeekdayClose}, ` +
    `Sat–Sun ${store.businessHoursWeekendOpen}–${store.businessHoursWeekendClose}`;
  replace($('site-footer'),
    h('nav', { 'aria-label': 'Information' },
      h('ul', null, pages.map((p) => h('li', null, h('a', { href: href.page(p.slug) }, p.title))))),
    h('p', null, `${store.name} · `, h('a', { href: `mailto:${store.contactEmail}` }, store.contactEmail), ` · ${hours}`),
    h('p', null, `Ships in ${store.processingTimeMin}–${store.processingTimeMax} days; ` +
      `${store.returnPeriodDays}-day returns. A demo of the cirrus-storefront SDK: no real orders, no real cards.`));
}

function highlightNav(r: Route): void {
  const nav = $('collection-nav');
  let rootSlug: string | null = null;
  if (r.name === 'collection') {
    const c = ctx!.collections.find((x) => x.slug === r.slug);
    rootSlug = c?.breadcrumb[0]?.slug ?? r.slug;
  }
  for (const a of nav.querySelectorAll('a')) {
    const on = (r.name === 'home' && a.dataset.route === 'home') || (rootSlug !== null && a.dataset.collection === rootSlug);
    if (on) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/** The loading indicator of a whole view: it floats (CSS), so nothing moves when it goes. */
function pageLoading(text: string): HTMLElement {
  const s = status('loading', text);
  s.classList.add('state-page');
  return s;
}

function clampPx(n: number, fallback: number): number {
  return Number.isFinite(n) && n > 0 && n <= 400 ? Math.round(n) : fallback;
}

function wireSkipLink(): void {
  $('skip-link').addEventListener('click', (e) => {
    e.preventDefault(); // no #main in the address
    const h1 = $('main').querySelector('h1');
    (h1 ?? $('main')).focus();
  });
}
