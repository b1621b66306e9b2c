// The browser engines the engine tests run in, each through its WebDriver server from this
// machine's package registries (scripts/lib.sh installs them):
//   chromium  Debian's chromium + chromedriver, headless
//   firefox   Debian's firefox-esr + geckodriver (crates.io), headless
//   webkit    Debian's WebKitGTK (MiniBrowser) + WebKitWebDriver, under Xvfb, LANG=en_US.UTF-8
//   webkit-c  the same under LANG=C.UTF-8: the browser says navigator.language === "C"
// `open(name, ports)` starts what the engine needs and opens a session; `close()` ends all of it.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { newSession, startDriver } from './webdriver.mjs';
import { CHROMIUM_FLAGS } from '../e2e/flags.mjs';

const CHROMIUM = process.env.CHROME_BIN ?? '/usr/bin/chromium';
const CHROMEDRIVER = process.env.CHROMEDRIVER ?? '/usr/bin/chromedriver';
const FIREFOX = process.env.FIREFOX_BIN ?? '/usr/bin/firefox-esr';
const GECKODRIVER = process.env.GECKODRIVER ?? 'geckodriver';
const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser'].find(existsSync)
  ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

export const ENGINES = ['chromium', 'firefox', 'webkit', 'webkit-c'];

const version = (bin, args = ['--version']) => {
  try { return execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n')[0]; } catch { return `${bin}: not found`; }
};

/** An X server of its own (Xvfb picks a free display and tells it on fd 3). */
async function startXvfb() {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (b) => { err = (err + b).slice(-2000); });
  const display = await new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`Xvfb gave no display number:\n${err}`)), 10_000);
    child.stdio[3].on('data', (b) => {
      out += b;
      if (out.includes('\n')) { clearTimeout(timer); ok(`:${out.trim()}`); }
    });
    child.once('exit', (code) => { clearTimeout(timer); fail(new Error(`Xvfb exited (${code}):\n${err}`)); });
  });
  return { display, stop: () => { child.kill('SIGTERM'); } };
}

/** Locale variables removed from a browser's environment before its own LANG is set. */
const withoutLocale = () => Object.fromEntries(['LANGUAGE', 'LC_ALL', 'LC_MESSAGES', 'LC_CTYPE'].map((k) => [k, '']));

/**
 * Start engine `name` (one of ENGINES) with its driver on `port`; returns
 * `{ name, session, label, close }` where label says the browser, its version and the driver's.
 */
export async function open(name, port) {
  const stops = [];
  const close = async () => { while (stops.length) await stops.pop()(); };
  try {
    let driver, caps, driverVersion, env = {};
    if (name === 'chromium') {
      driverVersion = version(CHROMEDRIVER).replace(/\s*\(.*\)$/, '');
      driver = await startDriver({ binary: CHROMEDRIVER, args: [`--port=${port}`], port, name: 'chromedriver' });
      caps = { browserName: 'chrome', 'goog:chromeOptions': { binary: CHROMIUM, args: [...CHROMIUM_FLAGS, '--window-size=1280,900', '--lang=en-US'] } };
    } else if (name === 'firefox') {
      driverVersion = version(GECKODRIVER);
      driver = await startDriver({ binary: GECKODRIVER, args: ['--host', '127.0.0.1', '--port', String(port)], port, name: 'geckodriver' });
      caps = {
        browserName: 'firefox',
        'moz:firefoxOptions': {
          binary: FIREFOX, args: ['-headless', '-width', '1280', '-height', '900'],
          // Nothing to fetch from the internet on this closed network.
          prefs: { 'app.update.enabled': false, 'browser.shell.checkDefaultBrowser': false, 'datareporting.policy.dataSubmissionEnabled': false, 'network.captive-portal-service.enabled': false, 'intl.accept_languages': 'en-US' },
        },
      };
    } else if (name === 'webkit' || name === 'webkit-c') {
      driverVersion = `WebKitWebDriver ${version('dpkg-query', ['-W', '-f=${Version}', 'webkit2gtk-driver'])}`;
      const x = await startXvfb();
      stops.push(x.stop);
      env = { ...withoutLocale(), DISPLAY: x.display, LANG: name === 'webkit-c' ? 'C.UTF-8' : 'en_US.UTF-8' };
      driver = await startDriver({ binary: WEBKIT_DRIVER, args: [`--port=${port}`], port, env, name: 'WebKitWebDriver' });
      caps = { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } };
    } else {
      throw new Error(`unknown engine ${name} (one of ${ENGINES.join(', ')})`);
    }
    stops.push(() => driver.stop());
    let session;
    try {
      session = await newSession(driver.url, caps);
    } catch (e) {
      throw new Error(`${e.message}\n--- driver output ---\n${driver.output()}`);
    }
    stops.push(() => session.quit());
    await session.timeouts({ script: 30_000, pageLoad: 30_000, implicit: 0 });
    if (name !== 'chromium') await session.setWindowSize(1280, 900).catch(() => {});
    const c = session.capabilities;
    const locale = env.LANG ? `, LANG=${env.LANG}` : '';
    const browser = { chrome: 'Chromium', firefox: 'Firefox ESR', MiniBrowser: 'WebKitGTK (MiniBrowser)' }[c.browserName] ?? c.browserName;
    return { name, session, label: `${browser} ${c.browserVersion} (${driverVersion}${locale})`, close };
  } catch (e) {
    await close();
    throw e;
  }
}
