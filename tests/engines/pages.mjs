// The part of Playwright's browser/context/page API the SDK's own browser tests use (goto,
// evaluate, waitForFunction, close, the `pageerror` event), over WebDriver, so those tests run
// unchanged in Firefox and WebKit (tests/cart/harness.mjs `launch()` with CART_ENGINE set).
// A context is a WebDriver session of its own (a fresh profile: its own storage); its pages
// are that session's windows (they share localStorage and see each other's storage events).
import { open } from './engines.mjs';

/** Page errors are read from the page after each call (WebDriver has no event for them). */
const PROBE = `
  if (!window.__problems) {
    window.__problems = [];
    window.addEventListener('error', (e) => window.__problems.push(e.message));
    window.addEventListener('unhandledrejection', (e) => window.__problems.push(e.reason && e.reason.message || String(e.reason)));
  }`;

/** Run `fn` (a function or its source) with `arg` in the page; its result, JSON-cloned. */
const CALL = `
  const done = arguments[arguments.length - 1];
  const problems = () => { const p = window.__problems || []; window.__problems = []; return p; };
  Promise.resolve().then(() => (FN)(arguments[0])).then(
    (v) => done(JSON.stringify({ ok: v === undefined ? null : v, undef: v === undefined, problems: problems() })),
    (e) => done(JSON.stringify({ error: e instanceof Error ? `${e.name}: ${e.message}` : String(e), problems: problems() })));`;

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
    const s = await this.focus();
    await s.navigate(url);
    await s.execute(PROBE);
  }

  async evaluate(fn, arg) {
    const s = await this.focus();
    const src = typeof fn === 'function' ? fn.toString() : `() => (${fn})`;
    const raw = await s.executeAsync(CALL.replace('FN', src), arg === undefined ? null : arg);
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
  constructor(engine) {
    this.engine = engine;
    this.session = engine.session;
    this.pages = [];
    this.current = null;
    this.spare = null;
  }

  async newPage() {
    let handle;
    if (this.spare) {
      handle = this.spare;
      this.spare = null;
    } else if (this.pages.length === 0) {
      handle = await this.session.window();
    } else {
      handle = await this.session.newWindow();
    }
    const page = new Page(this, handle);
    this.pages.push(page);
    return page;
  }

  close() { return this.engine.close(); }
}

/** A Playwright-like browser of `engine` whose contexts get driver ports from `port` on. */
export function webdriverBrowser(engine, port) {
  const contexts = [];
  let next = 0;
  return {
    label: null,
    async newContext() {
      const e = await open(engine, port + (next++ % 20));
      this.label ??= e.label;
      const c = new Context(e);
      contexts.push(c);
      return c;
    },
    async close() { for (const c of contexts) await c.engine.close(); },
  };
}
