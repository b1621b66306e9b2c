// The first view's API requests, sent as soon as the API key is known (config.json),
// while the wasm is still downloading and compiling; the SDK's client takes each answer
// over, once, through its `fetch` option (it validates and decodes it as usual). Without
// this, nothing would be asked before init() resolves.

/** Products per page of the home grid (views/catalog.ts). */
export const PAGE_SIZE = 24;

const pending = new Map<string, Promise<Response>>();

/** A request's identity: path and sorted query (the SDK orders parameters its own way). */
function key(url: string): string {
  const u = new URL(url, location.href);
  u.searchParams.sort();
  return `${u.pathname}?${u.searchParams}`;
}

/** Start the requests the view at `pathname` needs before any code of the SDK runs. */
export function sendEarly(apiBase: string, apiKey: string, pathname: string): void {
  const get = (path: string) => {
    const url = `${apiBase}${path}`;
    const res = fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
    res.catch(() => {}); // a failure reaches the SDK, which reports it
    pending.set(key(url), res);
    return res;
  };
  get('/store');
  get('/collections');
  get('/pages');
  // A product or collection path is read under the store's routes by the SDK (after
  // init): those views ask for their resource themselves.
  if (pathname === '/') get(`/products?limit=${PAGE_SIZE}&offset=0&includePagination=true&minimal=true`);
}

/** Requests of the first view are over: later ones always go to the network. */
export function dropEarly(): void {
  pending.clear();
}

/** The `fetch` the SDK's client uses: an early answer if one was sent for this GET. */
export const earlyFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  if (method.toUpperCase() === 'GET') {
    const k = key(url);
    const hit = pending.get(k);
    if (hit) {
      pending.delete(k);
      return hit;
    }
  }
  return fetch(input, init);
};
