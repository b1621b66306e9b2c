// What every view gets from the shell (app.ts). In its own module so the views
// never import the shell, which imports them: no app.ts <-> views/* cycle.
import type { Cart, Collection, Page, Product, SeoMeta, Store } from 'cirrus-storefront';
import type { Api, DemoConfig } from './sdk';

/** The cart drawer as the shell and the views use it (views/cart.ts `CartUi`). */
export interface CartView {
  cart: Cart;
  add(product: Product, variantId: string, quantity: number): string | null;
  /** Show the cart as it is now (the SDK empties it when a checkout is paid). */
  changed(): void;
  open(): void;
  close(restoreFocus?: boolean): void;
  mount(): void;
  button(): HTMLButtonElement;
  linesList(editable: boolean): HTMLElement;
  totalsList(extra?: [string, string, string?][]): HTMLElement;
}

export interface Ctx {
  config: DemoConfig;
  api: Api;
  store: Store;
  collections: Collection[];
  pages: Page[];
  cart: CartView;
  /** Aborted when the shopper navigates away from the view. */
  signal: AbortSignal;
  /** A view of the store's (home, product, collection, CMS page): its head from the SDK's SEO helpers. */
  setSeo(seo: SeoMeta): void;
  /** Any other view (checkout, order, not found): a title, and no canonical URL or JSON-LD. */
  setTitle(title: string): void;
}
