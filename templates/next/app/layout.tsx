import Link from "next/link";
import type { Viewport } from "next";
import { CartBadge } from "@/components/cart-badge";
import { SearchBox } from "@/components/search-box";
import { store } from "@/lib/cirrus";
import { searchIndex } from "@/lib/search";
import "./styles.css";

// Rendered per request (the catalog comes from the client's cache): `next build` needs no API.
export const dynamic = "force-dynamic";

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#1f3a5f" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const [{ name }, { href }] = await Promise.all([store(), searchIndex()]);
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <Link prefetch={false} href="/" className="brand">
            {name}
          </Link>
          <SearchBox indexHref={href} />
          <nav aria-label="Main">
            <ul>
              <li>
                <Link prefetch={false} href="/collections">Collections</Link>
              </li>
              <li>
                <CartBadge />
              </li>
            </ul>
          </nav>
        </header>
        <main id="main">{children}</main>
        <footer className="site-footer">
          <p>
            {name} · a Next.js storefront on <a href="https://www.npmjs.com/package/cirrus-storefront">cirrus-storefront</a>
          </p>
        </footer>
      </body>
    </html>
  );
}
