"use client";
// The provider of the product, cart and checkout pages: the SDK's client (made in the browser
// from the public settings) and the persistent cart, loaded only when a page or an action needs
// them (cirrus-storefront/react). Failures are logged in development by the provider itself.
import type { Store } from "cirrus-storefront";
import { CirrusProvider } from "cirrus-storefront/react";
import type { BrowserSettings } from "@/lib/cirrus";

export function Shop({ settings, store, children }: { settings: BrowserSettings; store: Store; children: React.ReactNode }) {
  return (
    <CirrusProvider client={{ baseUrl: settings.baseUrl, apiKey: settings.apiKey }} store={store}>
      {children}
    </CirrusProvider>
  );
}
