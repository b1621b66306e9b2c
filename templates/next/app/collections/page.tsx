// Every collection, root collections first with their children.
import type { Metadata } from "next";
import Link from "next/link";
import { canonicalUrl } from "cirrus-storefront";
import { cirrus, store } from "@/lib/cirrus";

export async function generateMetadata(): Promise<Metadata> {
  const s = await store();
  return { title: `Collections | ${s.name}`, description: `Every collection of ${s.name}.`, alternates: { canonical: canonicalUrl(s, "/collections") } };
}

export default async function Collections() {
  const collections = await (await cirrus()).collections();
  const roots = collections.filter((c) => c.parent === null);
  return (
    <>
      <h1>Collections</h1>
      <ul className="collections">
        {roots.map((root) => {
          const children = collections.filter((c) => c.parent === root.id);
          return (
            <li key={root.slug}>
              <Link prefetch={false} href={`/collections/${encodeURIComponent(root.slug)}`}>{root.name}</Link>
              {children.length > 0 ? (
                <ul>
                  {children.map((c) => (
                    <li key={c.slug}>
                      <Link prefetch={false} href={`/collections/${encodeURIComponent(c.slug)}`}>{c.name}</Link>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}
