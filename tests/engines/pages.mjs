// The part of Playwright's browser/context/page API the SDK's own browser tests use (goto,
// evaluate, waitForFunction, close, the `pageerror` event), over WebDriver, so those tests run
// unchanged in Firefox and WebKit (tests/cart/harness.mjs `launch()` with CART_ENGINE set).
// A context's pages are one WebDriver session's windows (they share localStorage and see each
// other's storage events); contexts take turns on that session (webdriverBrowser).
import { open } from './engines.mjs';

/** Page errors are read from the page after each call (WebDriver has no event for them). */
const PROBE = `
  if (!window.__problems) {
    window.__problems = [];
    window.addEventListener('error', (e) => window.__problems.push(e.message));
    window.addEventListener('unhandledrejection', (e) => window.__problems.push(e.reason && e.reason.message || String(e.reason)));
  }`;

/**
 * Run `fn` (a function or its source) with `arg` in the page; its result, JSON-cloned. The
 * function is made by the page's own `eval` and `arg` by its own `JSON.parse`, as Playwright's
 * `evaluate` does: geckodriver runs WebDriver scripts in a realm of their own (there, the
 * page's errors are not `instanceof Error`).
 */
const CALL = `
  const done = arguments[arguments.length - 1];
  const problems = () => { const p = window.__problems || []; window.__problems = []; return p; };
  const fn = window.eval(arguments[0]);
  const arg = window.JSON.parse(arguments[1]);
  Promise.resolve().then(() => fn(arg)).then(
    (v) => done(JSON.stringify({ ok: v === undefined ? null : v, undef: v === undefined, problems: problems() })),
    (e) => done(JSON.stringify({ error: e instanceof Error ? e.name + ': ' + e.message : String(e), problems: problems() })));`;

class Page {
  constructor(context, handle) {
    this.context = context;
    this.handle = handle;
    this.listeners = [];
    this.closed = false;
  }

  on(event, fn) { if (event === 'pageerror') this.listeners.push(fn); }
  setDefaultTimeout(ms) { this.timeout = ms; }

  async focus() {
    const s = this.context.session;
    if (this.context.current !== this.handle) {
      await s.switchTo(this.handle);
      this.context.current = this.handle;
    }
    return s;
  }

  async goto(url) {
    this.context.origins.add(new URL(url).origin);
    const s = await this.focus();
    await s.navigate(url);
    await s.execute(PROBE);
  }

  async evaluate(fn, arg) {
    const s = await this.focus();
    const src = typeof fn === 'function' ? fn.toString() : `() => (${fn})`;
    const raw = await s.executeAsync(CALL, `(${src})`, JSON.stringify(arg ?? null));
    const r = JSON.parse(raw);
    for (const p of r.problems) for (const l of this.listeners) l(new Error(p));
    if ('error' in r) throw new Error(`page.evaluate: ${r.error}`);
    return r.undef ? undefined : r.ok;
  }

  async waitForFunction(fn, arg, { timeout = this.timeout ?? 15_000 } = {}) {
    for (const until = Date.now() + timeout; ;) {
      const v = await this.evaluate(fn, arg);
      if (v) return v;
      if (Date.now() > until) throw new Error(`waitForFunction timed out after ${timeout} ms: ${fn}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Closes the window; the context's last one is emptied instead (closing it would end the session and its storage). */
  async close() {
    if (this.closed) return;
    this.closed = true;
    const s = await this.focus();
    const open = this.context.pages.filter((p) => !p.closed);
    if (open.length === 0) {
      await s.navigate('about:blank');
      this.context.spare = this.handle;
    } else {
      await s.closeWindow();
      this.context.current = null;
    }
  }
}

class Context {
  constructor(engine, handle) {
    this.engine = engine;
    this.session = engine.session;
    this.pages = [];
    this.current = handle;
    this.spare = handle;
    /** Origins whose storage this context used (emptied when the session is reused). */
    this.origins = new Set();
  }

  async newPage() {
    const handle = this.spare ?? await this.session.newWindow();
    this.spare = null;
    const page = new Page(this, handle);
    this.pages.push(page);
    return page;
  }

  /** Back to one empty window and no stored data: the session can serve the next context. */
  async reset() {
    const s = this.session;
    const [keep, ...others] = await s.windows();
    for (const h of others) {
      await s.switchTo(h);
      await s.closeWindow();
    }
    await s.switchTo(keep);
    for (const origin of this.origins) {
      await s.navigate(`${origin}/`);
      await s.execute('localStorage.clear(); sessionStorage.clear();');
    }
    await s.navigate('about:blank');
    return keep;
  }

  async close() { this.closed = true; }
}

/**
 * A Playwright-like browser of `engine` (its driver on `port`). Its contexts take turns on one
 * WebDriver session (starting a browser costs seconds): a new context gets it back with one
 * empty window and the storage of every origin the last one opened emptied. The SDK's tests
 * keep data in localStorage only, so that is a fresh context for them.
 */
export function webdriverBrowser(engine, port) {
  let opened = null;
  let last = null;
  return {
    get label() { return opened?.label ?? engine; },
    async newContext() {
      // One context at a time: a new one takes the session over (also from a test that failed before closing its own).
      opened ??= await open(engine, port);
      const handle = last ? await last.reset() : await opened.session.window();
      last = new Context(opened, handle);
      return last;
    },
    async close() { await opened?.close(); },
  };
}
