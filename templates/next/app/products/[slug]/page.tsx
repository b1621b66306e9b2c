// A product: its images and description, and the picker and "Add to cart" as a client island
// whose first render is the server's productOptions() (in the HTML: options, price, button).
import type { Metadata } from "next";
import Link from "next/link";
import { defaultSelection, productOptions, productSeo, toNextMetadata } from "cirrus-storefront";
import { JsonLd } from "@/components/json-ld";
import { ProductForm } from "@/components/product-form";
import { Shop } from "@/components/shop";
import { assetUrl, browserSettings, cirrus, orNotFound, priceFormat, store } from "@/lib/cirrus";

type Props = { params: Promise<{ slug: string }> };
const product = async (slug: string) => orNotFound(async () => (await cirrus()).productBySlug(slug));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [s, p] = await Promise.all([store(), product((await params).slug)]);
  return toNextMetadata(productSeo(s, p));
}

export default async function ProductPage({ params }: Props) {
  const [s, p, price] = await Promise.all([store(), product((await params).slug), priceFormat()]);
  // The picker's first render: the first variant in stock preselected (else the first variant).
  const options = productOptions(p, defaultSelection(p));
  const prices = Object.fromEntries(p.variants.map((v) => [v.id, price(v.price)]));
  const image = p.images[0];
  const crumb = p.collections[0];
  return (
    <>
      <JsonLd json={productSeo(s, p).jsonLd} />
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link href="/">Home</Link>
          </li>
          {crumb ? (
            <li>
              <Link href={`/collections/${encodeURIComponent(crumb.slug)}`}>{crumb.name}</Link>
            </li>
          ) : null}
          <li>
            <span aria-current="page">{p.name}</span>
          </li>
        </ol>
      </nav>
      <div className="product">
        {image ? <img className="product-image" src={assetUrl(image.url)} alt={image.alt} width={600} height={600} fetchPriority="high" /> : null}
        <div>
          <h1>{p.name}</h1>
          <Shop settings={browserSettings()} store={s}>
            <ProductForm product={p} options={options} prices={prices} />
          </Shop>
          <div className="description">{p.description}</div>
        </div>
      </div>
    </>
  );
}
