// The search index's bytes for the browser (components/search-box.tsx): at a URL named by their
// hash, so they are cached for good; another hash (an index rebuilt since) is a 404.
import { searchIndex } from "@/lib/search";

export async function GET(_request: Request, { params }: { params: Promise<{ hash: string }> }) {
  const [{ hash }, { href, bytes }] = await Promise.all([params, searchIndex()]);
  if (href !== `/search-index/${hash}`) return new Response("not the current index", { status: 404 });
  return new Response(bytes, {
    headers: { "content-type": "application/octet-stream", "cache-control": "public, max-age=31536000, immutable" },
  });
}
