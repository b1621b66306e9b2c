// The one place the page touches the package's API surface: init + client
// construction and the fetch calls the views use. Everything is imported from
// the public package name, exactly as an npm consumer would.
import { init, CirrusClient, CirrusError, setCheckoutWasm } from 'cirrus-storefront';
import type { Collection, MinimalProduct, MinimalProductsResponse, Page, Pagination, Product, Store } from 'cirrus-storefront';

import { earlyFetch } from './early';

export { CirrusError };

export interface DemoConfig {
  apiKey: string;
  processor: 'localstripe' | 'stripe';
  localstripeUrl: string | null;
}

/** The wasm's hashed URL under /assets (www/build.mjs defines it; index.html preloads it). */
declare const __CIRRUS_WASM_URL__: string;
/** The checkout module's wasm, fetched on the first Checkout.start/resume (www/build.mjs defines it). */
declare const __CIRRUS_CHECKOUT_WASM_URL__: string;

export async function loadConfig(): Promise<DemoConfig> {
  const res = await fetch('/config.json'); // preloaded by index.html; served no-cache
  if (!res.ok) throw new Error(`config.json: HTTP ${res.status}`);
  return (await res.json()) as DemoConfig;
}

/** Instantiate the wasm, with performance marks around it (read by the e2e benchmark). */
export async function initSdk(): Promise<void> {
  performance.mark('cirrus:wasm-init-start');
  await init(new URL(__CIRRUS_WASM_URL__, location.href));
  setCheckoutWasm(new URL(__CIRRUS_CHECKOUT_WASM_URL__, location.href));
  performance.mark('cirrus:wasm-init-end');
  performance.measure('cirrus:wasm-init', 'cirrus:wasm-init-start', 'cirrus:wasm-init-end');
}

export const apiBase = () => new URL('/api/v1', location.href).href;

export function makeClient(config: DemoConfig): CirrusClient {
  // earlyFetch: the first view's requests were sent before the wasm was ready (early.ts).
  return new CirrusClient({ baseUrl: apiBase(), apiKey: config.apiKey, fetch: earlyFetch });
}

/** The fetchers the views use, each cancellable with the view's AbortSignal. */
export class Api {
  constructor(readonly client: CirrusClient) {}

  store(signal = never()): Promise<Store> {
    return this.client.store(signal);
  }
  async products(offset: number, limit: number, signal = never()): Promise<{ products: MinimalProduct[]; pagination: Pagination }> {
    const r = (await this.client.products({ limit, offset, includePagination: true, minimal: true }, signal)) as MinimalProductsResponse;
    if (!r.pagination) throw new Error('the server left out pagination'); // includePagination=true always has it
    return { products: r.products, pagination: r.pagination };
  }
  product(slug: string, signal = never()): Promise<Product> {
    return this.client.productBySlug(slug, signal);
  }
  collections(signal = never()): Promise<Collection[]> {
    return this.client.collections(signal);
  }
  collection(slug: string, signal = never()): Promise<Collection> {
    return this.client.collectionBySlug(slug, signal);
  }
  pages(signal = never()): Promise<Page[]> {
    return this.client.pages(signal);
  }
}

/** A signal that never fires, for requests no view owns. */
function never(): AbortSignal {
  return new AbortController().signal;
}

/** A sentence for the shopper; the code and request id go to the console for support. */
export function describeError(err: unknown): string {
  if (err instanceof CirrusError) {
    console.warn(`[cirrus] ${err.code} (status ${err.status ?? '-'}, request ${err.requestId ?? '-'}): ${err.message}`);
    switch (err.code) {
      case 'network':
      case 'timeout':
        return 'We can’t reach the store right now. Check your connection and try again.';
      case 'not_found':
        return 'We couldn’t find that. It may have been removed.';
      case 'rate_limited':
        return 'The store is busy right now. Please try again in a moment.';
      case 'unauthorized':
        return 'This storefront is not authorized to read the store (API key rejected).';
      default:
        return `Something went wrong (${err.code}). Please try again.`;
    }
  }
  console.error(err);
  return 'Something went wrong. Please try again.';
}
