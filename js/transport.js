// The one place the SDK touches the network, for js/client.ts. cirrusFetch never
// rejects: every outcome is a plain object { status, body, requestId, retryAfter }
// or { status: 0, failure, message } with failure "network" | "timeout" | "aborted".

function abortReason(signal) {
  const r = signal && signal.reason;
  return r && r.message ? String(r.message) : "the operation was aborted";
}

export async function cirrusFetch(fetchImpl, url, method, authorization, body, timeoutMs, signal) {
  const doFetch = typeof fetchImpl === "function" ? fetchImpl : globalThis.fetch;
  if (typeof doFetch !== "function") {
    return { status: 0, failure: "network", message: "no fetch implementation: pass options.fetch" };
  }
  if (signal && signal.aborted) return { status: 0, failure: "aborted", message: abortReason(signal) };
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; ctl.abort(); }, timeoutMs);
  const onAbort = () => ctl.abort();
  if (signal) signal.addEventListener("abort", onAbort, { once: true });
  const headers = { Authorization: authorization, Accept: "application/json" };
  if (body != null) headers["Content-Type"] = "application/json";
  try {
    const res = await doFetch(url, { method, headers, body: body == null ? undefined : body, signal: ctl.signal });
    const text = await res.text();
    return {
      status: res.status,
      body: text,
      requestId: res.headers.get("x-request-id"),
      retryAfter: res.headers.get("retry-after"),
    };
  } catch (e) {
    if (timedOut) return { status: 0, failure: "timeout", message: `no complete response within ${timeoutMs} ms` };
    if (signal && signal.aborted) return { status: 0, failure: "aborted", message: abortReason(signal) };
    return { status: 0, failure: "network", message: `request failed: ${e && e.message ? e.message : String(e)}` };
  } finally {
    clearTimeout(timer);
    if (signal) signal.removeEventListener("abort", onAbort);
  }
}

// Resolves true after `ms`, or false as soon as `signal` aborts.
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal && signal.aborted) return resolve(false);
    const onAbort = () => { clearTimeout(t); resolve(false); };
    const t = setTimeout(() => { if (signal) signal.removeEventListener("abort", onAbort); resolve(true); }, ms);
    if (signal) signal.addEventListener("abort", onAbort, { once: true });
  });
}

// Settles like `promise`, or rejects with `makeError(reason)` when `signal` aborts
// first; then `onAbandon()` tells the shared request this caller has gone (it
// goes on for its other callers).
export function raceAbort(promise, signal, makeError, onAbandon) {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => { reject(makeError(abortReason(signal))); onAbandon(); };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => { signal.removeEventListener("abort", onAbort); resolve(v); },
      (e) => { signal.removeEventListener("abort", onAbort); reject(e); },
    );
  });
}
