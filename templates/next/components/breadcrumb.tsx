// The breadcrumb of a collection or product page (server component): Home, the collections
// above the page, then the page itself.
import Link from "next/link";

export function Breadcrumb({ collections, current }: { collections: { slug: string; name: string }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        <li>
          <Link prefetch={false} href="/">Home</Link>
        </li>
        {collections.map((c) => (
          <li key={c.slug}>
            <Link prefetch={false} href={`/collections/${encodeURIComponent(c.slug)}`}>{c.name}</Link>
          </li>
        ))}
        <li>
          <span aria-current="page">{current}</span>
        </li>
      </ol>
    </nav>
  );
}
