// A product in a grid (server component): name, price, image, link.
import Link from "next/link";
import { assetUrl } from "@/lib/cirrus";

export interface CardProduct {
  slug: string;
  name: string;
  price: string;
  images: { url: string; alt: string }[];
}

export function ProductGrid({ products, price }: { products: CardProduct[]; price: (p: CardProduct) => string }) {
  return (
    <ul className="grid">
      {products.map((p, i) => (
        <li key={p.slug} className="card">
          <Link prefetch={false} href={`/products/${encodeURIComponent(p.slug)}`}>
            {p.images[0] ? <img src={assetUrl(p.images[0].url)} alt="" width={300} height={300} loading={i < 4 ? "eager" : "lazy"} decoding="async" /> : null}
            <span className="card-name">{p.name}</span>
          </Link>
          <span className="card-price">{price(p)}</span>
        </li>
      ))}
    </ul>
  );
}
