// The cart: the persistent cart in the browser (the SDK's wasm loads here).
import type { Metadata } from "next";
import { CartView } from "@/components/cart-view";
import { Shop } from "@/components/shop";
import { browserSettings, store } from "@/lib/cirrus";

export async function generateMetadata(): Promise<Metadata> {
  return { title: `Cart | ${(await store()).name}`, robots: { index: false } };
}

export default async function CartPage() {
  return (
    <>
      <h1>Cart</h1>
      <Shop settings={browserSettings()} store={await store()}>
        <CartView />
      </Shop>
    </>
  );
}
