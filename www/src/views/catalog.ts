// Catalog views: the product grid (infinite scroll + a "load more" button),
// collections with breadcrumbs, product pages with option pickers, CMS pages.
import { collectionSeo, homeSeo, pageSeo, productOptions, productSeo, variantSelection } from 'cirrus-storefront';
import type { CollectionProduct, CurrencyCode, Image, MinimalProduct, OptionSelection, OptionValueAvailability, Product, Variant } from 'cirrus-storefront';
import type { Ctx } from '../ctx';
import { h, replace, status } from '../dom';
import { href } from '../router';
import { PAGE_SIZE } from '../early';
import { sanitize } from '../sanitize';
import { describeError } from '../sdk';
import { formatPrice, savingsText } from '../money';

let firstGridMarked = false;

function markFirstGrid(): void {
  if (firstGridMarked) return;
  firstGridMarked = true;
  performance.mark('cirrus:first-grid');
}

/** `eager`: in the first screen (the largest paint), asked for at once and first. */
function img(image: Image | undefined, cls = '', eager = false): HTMLElement {
  return image
    ? h('img', { src: image.url, alt: image.alt, loading: eager ? 'eager' : 'lazy', fetchpriority: eager ? 'high' : 'auto', decoding: 'async', width: 400, height: 400, class: cls })
    : h('div', { class: `noimg ${cls}`, role: 'img', 'aria-label': 'No image' });
}

function card(ctx: Ctx, p: MinimalProduct | CollectionProduct, index: number): HTMLElement {
  const currency = ctx.store.defaultCurrency;
  const compare = 'compareAtPrice' in p ? p.compareAtPrice : null;
  return h('li', { class: 'card' },
    h('a', { href: href.product(p.slug), 'data-product': p.slug },
      img(p.images[0], '', index < 4),
      h('h2', null, p.name),
      priceLine(p.price, compare, currency)));
}

export function priceLine(price: string, compareAt: string | null, currency: CurrencyCode): HTMLElement {
  const onSale = compareAt !== null && savingsText(price, compareAt, currency) !== null;
  return h('p', { class: 'price' },
    h('span', { class: onSale ? 'sale' : '' }, onSale ? h('span', { class: 'visually-hidden' }, 'Sale price ') : null, formatPrice(price, currency)),
    onSale ? h('s', { class: 'was' }, h('span', { class: 'visually-hidden' }, 'Regular price '), formatPrice(compareAt!, currency)) : null);
}

export async function homeView(main: HTMLElement, ctx: Ctx): Promise<void> {
  ctx.setSeo(homeSeo(ctx.store));
  const first = await ctx.api.products(0, PAGE_SIZE, ctx.signal); // sent early (early.ts) on a first visit
  if (ctx.signal.aborted) return;
  const grid = h('ul', { class: 'grid', 'aria-label': 'Products', id: 'product-grid' });
  const count = h('p', { class: 'collection-intro', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', class: 'btn', id: 'load-more' }, 'Load more products');
  const pager = h('div', { class: 'pager' });
  const sentinel = h('div', { class: 'sentinel', 'aria-hidden': 'true' });
  replace(main, h('h1', null, 'All products'), count, grid, sentinel, pager);
  if (first.products.length === 0) {
    replace(grid);
    grid.replaceWith(status('empty', 'No products yet. Check back soon.'));
    return;
  }

  let offset = 0;
  let total = first.pagination.total;
  let loading = false;
  const show = (items: MinimalProduct[], hasMore: boolean) => {
    for (const p of items) grid.appendChild(card(ctx, p, grid.childElementCount));
    offset += items.length;
    count.textContent = `Showing ${offset} of ${total} products`;
    replace(pager, hasMore ? more : h('p', null, 'You’ve seen everything.'));
    if (!hasMore) observer.disconnect();
  };
  const loadMore = async () => {
    if (loading || ctx.signal.aborted) return;
    loading = true;
    more.setAttribute('disabled', '');
    replace(pager, status('loading', 'Loading more…'));
    try {
      const page = await ctx.api.products(offset, PAGE_SIZE, ctx.signal);
      if (ctx.signal.aborted) return;
      total = page.pagination.total;
      show(page.products, page.pagination.hasMore);
    } catch (err) {
      if (ctx.signal.aborted) return;
      // Keep what is shown; offer the next page again.
      replace(pager, status('error', describeError(err), { label: 'Try again', run: () => void loadMore() }));
    } finally {
      loading = false;
      more.removeAttribute('disabled');
    }
  };
  more.addEventListener('click', () => void loadMore());
  // Infinite scroll for pointer users; the button stays for keyboard users and as a fallback.
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) void loadMore();
  }, { rootMargin: '600px 0px' });
  ctx.signal.addEventListener('abort', () => observer.disconnect());
  show(first.products, first.pagination.hasMore);
  markFirstGrid();
  if (first.pagination.hasMore) observer.observe(sentinel);
}

export async function collectionView(main: HTMLElement, ctx: Ctx, slug: string): Promise<void> {
  // Collections (with their products) come with the shell; ask again only for a slug not
  // among them (one round trip less on a collection's first paint).
  const c = ctx.collections.find((x) => x.slug === slug) ?? await ctx.api.collection(slug, ctx.signal);
  if (ctx.signal.aborted) return;
  ctx.setSeo(collectionSeo(ctx.store, c));
  const children = ctx.collections.filter((x) => x.parent === c.id);
  const crumbs = h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' },
    h('ol', null,
      h('li', null, h('a', { href: href.home() }, 'Home')),
      c.breadcrumb.map((b, i) => h('li', null, i === c.breadcrumb.length - 1
        ? h('span', { 'aria-current': 'page' }, b.name)
        : h('a', { href: href.collection(b.slug) }, b.name)))));
  const desc = h('div', { class: 'collection-intro rich' });
  desc.appendChild(sanitize(c.description));
  replace(main, crumbs, h('h1', null, c.name), desc,
    children.length ? h('nav', { 'aria-label': `Inside ${c.name}` }, h('ul', { class: 'subcollections' },
      children.map((x) => h('li', null, h('a', { href: href.collection(x.slug), 'data-collection': x.slug }, x.name))))) : null,
    c.products.length
      ? h('ul', { class: 'grid', 'aria-label': `${c.name} products`, id: 'product-grid' }, c.products.map((p, i) => card(ctx, p, i)))
      : status('empty', children.length ? 'Browse the collections above.' : 'Nothing in this collection yet.'));
}

export async function pageView(main: HTMLElement, ctx: Ctx, slug: string): Promise<void> {
  // Pages come with the shell; fetch again only if the slug is not known yet.
  let page = ctx.pages.find((p) => p.slug === slug);
  if (!page) page = (await ctx.api.pages()).find((p) => p.slug === slug);
  if (ctx.signal.aborted) return;
  if (!page) {
    ctx.setTitle('Not found');
    replace(main, h('h1', null, 'Page not found'), status('empty', 'There is no such page.'));
    return;
  }
  ctx.setSeo(pageSeo(ctx.store, page));
  const body = h('div', { class: 'rich', 'data-page': page.slug });
  body.appendChild(sanitize(page.content));
  replace(main, h('article', null, h('h1', null, page.title), body));
}

export async function productView(main: HTMLElement, ctx: Ctx, slug: string): Promise<void> {
  const p = await ctx.api.product(slug, ctx.signal);
  if (ctx.signal.aborted) return;
  ctx.setSeo(productSeo(ctx.store, p));
  const currency = ctx.store.defaultCurrency;
  const first = productOptions(p, null).firstAvailableVariant ?? p.variants[0];
  let sel: OptionSelection = first ? variantSelection(p, first.id) : {};

  const gallery = h('div', { class: 'gallery' });
  const priceBox = h('div', { 'aria-live': 'polite' });
  const stock = h('p', { class: 'stock', 'aria-live': 'polite' });
  const pickers = h('div');
  const qty = h('input', { id: 'qty', class: 'qty', type: 'number', inputmode: 'numeric', min: 1, value: 1, step: 1 });
  const add = h('button', { type: 'submit', class: 'btn btn-primary', id: 'add-to-cart' }, 'Add to cart');
  const note = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'buy', novalidate: true },
    pickers,
    h('div', { class: 'row' },
      h('div', { class: 'field' }, h('label', { for: 'qty' }, 'Quantity'), qty),
      h('div', { class: 'field' }, add)),
    note);
  const desc = h('div', { class: 'rich', id: 'description' });
  desc.appendChild(sanitize(p.description));
  const crumbs = p.collections[0]
    ? h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, h('ol', null,
        h('li', null, h('a', { href: href.home() }, 'Home')),
        h('li', null, h('a', { href: href.collection(p.collections[0].slug) }, p.collections[0].name)),
        h('li', null, h('span', { 'aria-current': 'page' }, p.name))))
    : null;

  const update = () => {
    const state = pickerState(p, sel);
    sel = state.selection;
    const v = state.variant;
    replace(pickers, state.options.map((opt, i) => {
      const id = `opt-${i}`;
      const select = h('select', { id, name: opt.name, 'data-option': opt.name },
        opt.values.map((s) => h('option', { value: s.value, disabled: !s.available && sel[opt.name] !== s.value, selected: sel[opt.name] === s.value },
          s.available ? s.value : `${s.value} — ${s.exists ? 'sold out' : 'unavailable'}`)));
      select.addEventListener('change', () => { sel = { ...sel, [opt.name]: select.value }; update(); document.getElementById(id)?.focus(); });
      return h('div', { class: 'field' }, h('label', { for: id }, opt.name), select);
    }));
    replace(gallery, img(v?.image ?? p.images[0], '', true));
    if (!v) {
      replace(priceBox, priceLine(p.variants[0]?.price ?? '0', null, currency));
      stock.className = 'stock stock-out';
      stock.textContent = 'This combination is not available.';
      add.setAttribute('disabled', '');
      return;
    }
    const saving = v.compareAtPrice ? savingsText(v.price, v.compareAtPrice, currency) : null;
    replace(priceBox, priceLine(v.price, v.compareAtPrice, currency), saving ? h('span', { class: 'savings' }, `You save ${saving}`) : null);
    if (inStock(v)) {
      stock.className = 'stock stock-in';
      stock.textContent = v.stockQuantity <= 5 ? `In stock — only ${v.stockQuantity} left` : 'In stock';
      add.removeAttribute('disabled');
      qty.max = String(v.stockQuantity);
      if (Number(qty.value) > v.stockQuantity) qty.value = String(v.stockQuantity);
    } else {
      stock.className = 'stock stock-out';
      stock.textContent = 'Out of stock';
      add.setAttribute('disabled', '');
    }
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = pickerState(p, sel).variant;
    if (!v) return;
    const n = Number(qty.value);
    const err = ctx.cart.add(p, v.id, n);
    if (err) {
      replace(note, h('p', { class: 'notice notice-error', role: 'alert' }, err));
      qty.setAttribute('aria-invalid', 'true');
    } else {
      qty.removeAttribute('aria-invalid');
      replace(note, h('p', { class: 'notice notice-ok' }, `Added ${n} × ${p.name} to your cart.`));
      ctx.cart.open();
    }
  });

  replace(main, crumbs, h('article', { class: 'product', 'data-product': p.slug },
    gallery,
    h('div', null,
      h('h1', null, p.name),
      priceBox, stock,
      p.variants.length === 0 ? status('empty', 'This product has no variants for sale.') : form,
      h('h2', null, 'Description'),
      desc)));
  update();
}

const inStock = (v: Variant) => v.stockStatus === 'IN_STOCK' && v.stockQuantity > 0;

/**
 * The option pickers from the SDK's productOptions: the values of option N as available
 * given the values chosen for options 1..N-1 (the later ones not yet counted), so the
 * pickers never reach a combination that does not exist or is sold out and a shopper
 * never gets stuck; each choice is kept while available, else the first available value
 * is taken (or an existing one when all are sold out). Returns the selection made valid
 * and the variant it names.
 */
function pickerState(p: Product, sel: OptionSelection): { options: { name: string; values: OptionValueAvailability[] }[]; selection: OptionSelection; variant: Variant | null } {
  const names = productOptions(p, null).options.map((o) => o.name);
  const next: OptionSelection = {};
  const options = names.map((name, i) => {
    const values = productOptions(p, next).options[i].values;
    const current = values.find((x) => x.value === sel[name]);
    const pick = current?.available ? current : values.find((x) => x.available) ?? (current?.exists ? current : values.find((x) => x.exists));
    if (pick) next[name] = pick.value;
    return { name, values };
  });
  const variant = names.length === 0 ? p.variants[0] ?? null : productOptions(p, next).selectedVariant;
  return { options, selection: next, variant };
}
