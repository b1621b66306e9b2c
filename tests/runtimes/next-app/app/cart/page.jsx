// The page of a client component: the browser loads the SDK (`browser` condition) and runs a
// cart; the server passes the API settings.
import CartView from "./cart-view";

export const dynamic = "force-dynamic";

export default function CartPage() {
  return <CartView baseUrl={process.env.CIRRUS_BASE_URL} apiKey={process.env.CIRRUS_API_KEY} />;
}
