// A route handler whose one CirrusClient, made once per module (on its first request), is
// shared by every request: GET ?slug=S answers { slug, name } of that product; with &abort=1
// the call is aborted by its own signal once it has started (joined the shared GET of its
// slug) and answers { slug, code }: the other requests for that slug must still get theirs.
export function productHandler({ init, CirrusClient }) {
  let client;
  return async function GET(request) {
    client ??= init().then(() => new CirrusClient({ baseUrl: process.env.CIRRUS_BASE_URL, apiKey: process.env.CIRRUS_API_KEY }));
    const params = new URL(request.url).searchParams;
    const slug = params.get("slug");
    const ctl = new AbortController();
    try {
      const pending = (await client).productBySlug(slug, ctl.signal);
      if (params.get("abort")) {
        await null; // the call has started: its GET is in flight, shared with the same slug's
        ctl.abort();
      }
      const product = await pending;
      return Response.json({ slug: product.slug, name: product.name });
    } catch (e) {
      return Response.json({ slug, code: e.code ?? null, message: String(e.message) }, { status: e.code === "aborted" ? 200 : 500 });
    }
  };
}
