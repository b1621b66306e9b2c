// Checkout: the cart's checkout (useCheckout) with the processor's payment form.
import type { Metadata } from "next";
import { CheckoutView } from "@/components/checkout-view";
import { Shop } from "@/components/shop";
import { browserSettings, store } from "@/lib/cirrus";

export async function generateMetadata(): Promise<Metadata> {
  return { title: `Checkout | ${(await store()).name}`, robots: { index: false } };
}

export default async function CheckoutPage() {
  const settings = browserSettings();
  return (
    <>
      <h1>Checkout</h1>
      <Shop settings={settings} store={await store()}>
        <CheckoutView localstripeUrl={settings.localstripeUrl} />
      </Shop>
    </>
  );
}
