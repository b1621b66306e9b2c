// What every view gets from the shell (app.ts). In its own module so the views
// never import the shell, which imports them: no app.ts <-> views/* cycle.
import type { Cart, Collection, Page, Product, Store } from 'cirrus-storefront';
import type { Api, DemoConfig } from './sdk';

/** The cart drawer as the shell and the views use it (views/cart.ts `CartUi`). */
export interface CartView {
  cart: Cart;
  add(product: Product, variantId: string, quantity: number): string | null;
  clear(): void;
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
  setTitle(title: string | null, description?: string | null): void;
}
