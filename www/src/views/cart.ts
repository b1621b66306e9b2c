// The cart drawer. The cart itself is the SDK's `Cart` (exact minor units,
// stock caps, merging); it is kept in localStorage by the SDK's persistence
// helper, which also follows changes made in other tabs.
import { Cart } from 'cirrus-storefront';
import type { CartLine, Product, Store } from 'cirrus-storefront';
import type { Api } from '../sdk';
import type { Ctx } from '../ctx';
import { h, replace, status } from '../dom';
import { href } from '../router';
import { fmt } from '../money';
import { CirrusError } from '../sdk';

const STORAGE_KEY = 'cirrus-demo-cart';

export class CartUi {
  cart: Cart;
  private drawer = document.getElementById('cart-drawer') as HTMLElement;
  private backdrop = document.getElementById('cart-backdrop') as HTMLElement;
  private btn: HTMLButtonElement | null = null;
  // The button's accessible name is its visible text plus a hidden word: "Cart 1 item".
  private badge = h('span', { class: 'badge' }, '0');
  private unit = h('span', { class: 'visually-hidden' }, ' items');
  private notice: string | null = null;
  private listeners = new Set<() => void>();

  constructor(readonly store: Store, readonly api: Api, readonly ctx: () => Ctx | null) {
    // The SDK keeps the cart in localStorage, saves after every change and
    // follows other tabs; it never throws on bad saved data, it reports it.
    this.cart = Cart.persistent(store.defaultCurrency, {
      key: STORAGE_KEY,
      onChange: ({ problem }) => {
        this.notice = problem ? `Your cart: ${problem.message}` : null;
        this.changed();
      },
    });
    if (this.cart.problem) this.notice = `Your saved cart could not be restored: ${this.cart.problem.message}`;
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Show the cart as it is now (after the SDK changed it: a paid checkout empties it). */
  changed(): void {
    const count = this.cart.totals.itemCount;
    this.badge.textContent = String(count);
    this.unit.textContent = count === 1 ? ' item' : ' items';
    if (!this.drawer.hidden) this.render();
    for (const fn of this.listeners) fn();
  }

  /** Add `quantity` of a variant; returns a message for the shopper on refusal. */
  add(product: Product, variantId: string, quantity: number): string | null {
    try {
      this.cart.add(product, variantId, quantity);
    } catch (err) {
      return err instanceof CirrusError ? err.message : String(err);
    }
    this.changed();
    return null;
  }

  button(): HTMLButtonElement {
    this.btn = h('button', { type: 'button', class: 'btn cart-button', id: 'cart-button', 'aria-haspopup': 'dialog', 'aria-controls': 'cart-drawer', 'aria-expanded': 'false', onclick: () => this.open() },
      h('span', null, 'Cart'), ' ', this.badge, this.unit);
    this.changed();
    return this.btn;
  }

  mount(): void {
    this.backdrop.addEventListener('click', () => this.close());
    this.drawer.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.close();
      if (e.key === 'Tab') this.trapFocus(e);
    });
  }

  open(): void {
    this.render();
    this.drawer.hidden = false;
    this.backdrop.hidden = false;
    this.btn?.setAttribute('aria-expanded', 'true');
    (this.drawer.querySelector('.drawer-close') as HTMLElement | null)?.focus();
  }

  close(restoreFocus = true): void {
    if (this.drawer.hidden) return;
    this.drawer.hidden = true;
    this.backdrop.hidden = true;
    this.btn?.setAttribute('aria-expanded', 'false');
    if (restoreFocus) this.btn?.focus();
  }

  private trapFocus(e: KeyboardEvent): void {
    const items = [...this.drawer.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled])')];
    if (items.length === 0) return;
    const first = items[0], last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  }

  private setQty(line: CartLine, quantity: number, focusId: string): void {
    try {
      this.cart.setQuantity(line.variantId, quantity);
      this.notice = null;
    } catch (err) {
      this.notice = err instanceof CirrusError ? err.message : String(err);
    }
    this.changed();
    document.getElementById(focusId)?.focus();
  }

  /** Lines, totals and the checkout button (also used read-only by the checkout summary). */
  linesList(editable: boolean): HTMLElement {
    const cur = this.store.defaultCurrency;
    return h('ul', { class: 'lines' }, this.cart.lines.map((l, i) => {
      const attrs = Object.entries(l.attributes).map(([k, v]) => `${k}: ${v}`).join(' · ');
      const qtyId = `line-qty-${i}`;
      return h('li', { class: 'line', 'data-variant': l.variantId },
        l.image ? h('img', { src: l.image.url, alt: l.image.alt, width: 64, height: 64 }) : h('div', { class: 'noimg', role: 'img', 'aria-label': 'No image' }),
        h('div', null,
          h('a', { class: 'line-name', href: href.product(l.productSlug), onclick: () => this.close(false) }, l.productName),
          attrs ? h('div', { class: 'line-attrs' }, attrs) : null,
          h('div', { class: 'line-attrs' }, `${fmt(l.unitPrice, cur)} each `,
            l.compareAtPrice !== null && l.compareAtPrice > l.unitPrice ? h('s', { class: 'was' }, fmt(l.compareAtPrice, cur)) : null),
          h('div', { class: 'line-controls' },
            editable ? [
              h('button', { type: 'button', class: 'btn btn-small', 'aria-label': `Decrease quantity of ${l.productName}`, disabled: l.quantity <= 1,
                onclick: () => this.setQty(l, l.quantity - 1, qtyId) }, '−'),
              h('label', { class: 'visually-hidden', for: qtyId }, `Quantity of ${l.productName}`),
              (() => {
                const input = h('input', { id: qtyId, type: 'number', inputmode: 'numeric', min: 1, max: l.stockQuantity, value: l.quantity, class: 'line-qty' });
                input.addEventListener('change', () => {
                  const n = Number(input.value);
                  if (Number.isInteger(n) && n >= 1) this.setQty(l, n, qtyId);
                  else { input.value = String(l.quantity); this.notice = 'Enter a whole number of at least 1.'; this.render(); }
                });
                return input;
              })(),
              h('button', { type: 'button', class: 'btn btn-small', 'aria-label': `Increase quantity of ${l.productName}`, disabled: l.quantity >= l.stockQuantity,
                onclick: () => this.setQty(l, l.quantity + 1, qtyId) }, '+'),
              h('button', { type: 'button', class: 'link-button', onclick: () => { this.cart.remove(l.variantId); this.changed(); (this.drawer.querySelector('.drawer-close') as HTMLElement | null)?.focus(); } },
                'Remove', h('span', { class: 'visually-hidden' }, ` ${l.productName}`)),
            ] : h('span', null, `Qty ${l.quantity}`),
            h('span', { class: 'line-total', 'data-line-total': '' }, fmt(l.lineTotal, cur))),
          l.lineSavings > 0 ? h('div', { class: 'line-attrs savings', 'data-line-savings': '' }, `You save ${fmt(l.lineSavings, cur)}`) : null));
    }));
  }

  totalsList(extra: [string, string, string?][] = []): HTMLElement {
    const cur = this.store.defaultCurrency;
    const t = this.cart.totals;
    return h('dl', { class: 'totals' },
      h('dt', null, 'Subtotal'), h('dd', { 'data-subtotal': '' }, fmt(t.subtotal, cur)),
      t.totalSavings > 0 ? [h('dt', null, 'You save'), h('dd', { 'data-savings': '', class: 'savings' }, fmt(t.totalSavings, cur))] : null,
      extra.flatMap(([k, v, cls]) => [h('dt', { class: cls ?? '' }, k), h('dd', { class: cls ?? '' }, v)]));
  }

  render(): void {
    const empty = this.cart.lines.length === 0;
    replace(this.drawer,
      h('div', { class: 'drawer-head' },
        h('h2', { id: 'cart-title' }, 'Your cart'),
        h('button', { type: 'button', class: 'btn btn-small drawer-close', onclick: () => this.close() }, 'Close', h('span', { class: 'visually-hidden' }, ' cart'))),
      h('div', { class: 'drawer-body' },
        this.notice ? h('p', { class: 'notice notice-error', role: 'alert' }, this.notice) : null,
        empty ? status('empty', 'Your cart is empty.') : this.linesList(true)),
      empty ? null : h('div', { class: 'drawer-foot' },
        this.totalsList(),
        h('p', { class: 'line-attrs' }, 'Shipping and tax are calculated at checkout.'),
        h('a', { class: 'btn btn-primary', href: href.checkout(), id: 'go-checkout', onclick: () => this.close(false) }, 'Check out')));
  }
}
