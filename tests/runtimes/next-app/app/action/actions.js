"use server";
// A server action with the root entry: the product a form names, looked up on the server.
import { init, CirrusClient } from "cirrus-storefront";

export async function productName(_previous, form) {
  await init();
  const client = new CirrusClient({ baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY });
  const product = await client.productBySlug(String(form.get("slug")));
  return `${product.slug}: ${product.name}`;
}
