// A small WebDriver (classic, W3C, over HTTP) client: what the engine tests need of
// chromedriver, geckodriver and WebKitWebDriver, with node's own fetch and child_process.
// One driver process per engine, one session per browser; no dependency.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** A WebDriver error answer, with the command that got it. */
export class WebDriverError extends Error {
  constructor(command, value) {
    super(`${command}: ${value?.error ?? 'error'}: ${String(value?.message ?? JSON.stringify(value)).split('\n')[0]}`);
    this.name = 'WebDriverError';
    this.error = value?.error;
  }
}

/**
 * Start a driver binary listening on 127.0.0.1:`port` (`args` are the driver's own flags,
 * `env` added to the process's), and wait until its /status answers ready. `stop()` ends it.
 */
export async function startDriver({ binary, args, port, env = {}, name = binary }) {
  const child = spawn(binary, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (b) => { output = (output + b).slice(-4000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  child.on('exit', (code, signal) => { exited = signal ?? code; });
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 20_000; ;) {
    if (exited !== null) throw new Error(`${name} exited (${exited}) before it was ready:\n${output}`);
    try {
      const res = await fetch(`${url}/status`);
      const { value } = await res.json();
      if (value?.ready !== false) break;
    } catch { /* not listening yet */ }
    if (Date.now() > until) throw new Error(`${name} did not answer on ${url}/status:\n${output}`);
    await sleep(100);
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (exited !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, sleep(3000)]);
      if (exited === null) child.kill('SIGKILL');
    },
  };
}

/** Open a session on the driver at `driverUrl` with `alwaysMatch` capabilities. */
export async function newSession(driverUrl, alwaysMatch) {
  const res = await fetch(`${driverUrl}/session`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ capabilities: { alwaysMatch } }),
  });
  const body = await res.json();
  if (!res.ok || !body.value?.sessionId) throw new WebDriverError('new session', body.value);
  return new Session(driverUrl, body.value.sessionId, body.value.capabilities);
}

export class Session {
  constructor(driverUrl, id, capabilities) {
    this.base = `${driverUrl}/session/${id}`;
    this.capabilities = capabilities;
  }

  async cmd(method, path, body) {
    const res = await fetch(this.base + path, {
      method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let value;
    try { value = JSON.parse(text).value; } catch { value = { error: `HTTP ${res.status}`, message: text.slice(0, 300) }; }
    if (!res.ok) throw new WebDriverError(`${method} ${path}`, value);
    return value;
  }

  navigate(url) { return this.cmd('POST', '/url', { url }); }
  /** Runs `script` (a function body: `arguments[0]`… are `args`) in the current window. */
  execute(script, ...args) { return this.cmd('POST', '/execute/sync', { script, args }); }
  /** Like `execute`, `script` calling `arguments[arguments.length - 1](result)` when done. */
  executeAsync(script, ...args) { return this.cmd('POST', '/execute/async', { script, args }); }
  async find(css) { return (await this.cmd('POST', '/element', { using: 'css selector', value: css }))[ELEMENT]; }
  async findAll(css) { return (await this.cmd('POST', '/elements', { using: 'css selector', value: css })).map((e) => e[ELEMENT]); }
  click(el) { return this.cmd('POST', `/element/${el}/click`, {}); }
  clear(el) { return this.cmd('POST', `/element/${el}/clear`, {}); }
  type(el, text) { return this.cmd('POST', `/element/${el}/value`, { text }); }
  property(el, name) { return this.cmd('GET', `/element/${el}/property/${name}`); }
  windows() { return this.cmd('GET', '/window/handles'); }
  window() { return this.cmd('GET', '/window'); }
  switchTo(handle) { return this.cmd('POST', '/window', { handle }); }
  async newWindow() { return (await this.cmd('POST', '/window/new', { type: 'tab' })).handle; }
  closeWindow() { return this.cmd('DELETE', '/window'); }
  setWindowSize(width, height) { return this.cmd('POST', '/window/rect', { width, height }); }
  timeouts(t) { return this.cmd('POST', '/timeouts', t); }
  async screenshot() { return Buffer.from(await this.cmd('GET', '/screenshot'), 'base64'); }
  async quit() { try { await this.cmd('DELETE', ''); } catch { /* already gone */ } }

  /**
   * Poll `script` (a function body returning a value) until it returns something truthy;
   * that value. Throws after `timeout` ms naming `what` and the last value (or error).
   */
  async waitFor(what, script, { timeout = 15_000, args = [] } = {}) {
    let last;
    for (const until = Date.now() + timeout; ;) {
      try {
        last = await this.execute(script, ...args);
        if (last) return last;
      } catch (e) {
        last = e.message;
      }
      if (Date.now() > until) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${JSON.stringify(last)?.slice(0, 300)})`);
      await sleep(100);
    }
  }
}
