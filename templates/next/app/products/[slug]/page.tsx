// A product: its images and description, and the picker and "Add to cart" as a client island
// whose first render is the server's productOptions() (in the HTML: options, price, button).
import { defaultSelection, productOptions, productSeo } from "cirrus-storefront";
import { Breadcrumb } from "@/components/breadcrumb";
import { JsonLd } from "@/components/json-ld";
import { ProductForm } from "@/components/product-form";
import { Shop } from "@/components/shop";
import { assetUrl, browserSettings, priceFormat, store } from "@/lib/cirrus";
import { slugPage, type SlugProps } from "@/lib/slug-page";

const page = slugPage((client, slug) => client.productBySlug(slug), productSeo);
export const generateMetadata = page.generateMetadata;

export default async function ProductPage(props: SlugProps) {
  const [s, p, price] = await Promise.all([store(), page.load(props), priceFormat()]);
  // The picker's first render: the first variant in stock preselected (else the first variant).
  const options = productOptions(p, defaultSelection(p));
  const prices = Object.fromEntries(p.variants.map((v) => [v.id, price(v.price)]));
  const image = p.images[0];
  return (
    <>
      <JsonLd json={productSeo(s, p).jsonLd} />
      <Breadcrumb collections={p.collections.slice(0, 1)} current={p.name} />
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
