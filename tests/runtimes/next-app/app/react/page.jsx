// The React entry in Next.js: a server component renders a client component that uses
// `cirrus-storefront/react` (CirrusProvider, useCart, useClient); the server passes the API settings.
import ReactCart from "./react-cart";

export const dynamic = "force-dynamic";

export default function ReactPage() {
  return <ReactCart baseUrl={process.env.CIRRUS_BASE_URL} apiKey={process.env.CIRRUS_API_KEY} />;
}
