// Renders store-supplied HTML (CMS page content, product and collection
// descriptions) safely. The HTML is parsed in an inert document (DOMParser:
// scripts do not run, images do not load), then a *new* tree is built in the
// live document from an allow-list: known formatting elements, a few
// attributes, and links/images only with http(s)/mailto/relative URLs. Nothing
// from the parsed tree is ever adopted, so no event handler or unknown
// attribute can survive. The page's Content-Security-Policy is the second wall.

const ALLOWED = new Set([
  'p', 'br', 'hr', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'strong', 'b', 'em', 'i', 'u', 's', 'small', 'sub', 'sup', 'mark', 'blockquote', 'q',
  'code', 'pre', 'kbd', 'a', 'img', 'span', 'div', 'section', 'article', 'figure', 'figcaption',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'abbr', 'time',
]);
/** Dropped together with everything inside them. */
const DROP = new Set([
  'script', 'style', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet',
  'noscript', 'noembed', 'svg', 'math', 'link', 'meta', 'base', 'head', 'title', 'form',
  'input', 'button', 'textarea', 'select', 'option', 'audio', 'video', 'source', 'track',
  'canvas', 'portal', 'dialog',
]);
/** Headings in content start at h2: the page owns h1. */
const RENAME: Record<string, string> = { h1: 'h2' };
const ATTRS: Record<string, string[]> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'width', 'height'],
  abbr: ['title'],
  time: ['datetime'],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  ol: ['start'],
};
const MAX_DEPTH = 32;

/** A URL is kept only if it is http(s) (or mailto: for links), relative or absolute. */
export function safeUrl(raw: string, kind: 'link' | 'image'): string | null {
  const value = raw.trim();
  if (value === '') return null;
  let url: URL;
  try {
    url = new URL(value, document.baseURI);
  } catch {
    return null;
  }
  const ok = kind === 'link' ? ['http:', 'https:', 'mailto:'] : ['http:', 'https:'];
  return ok.includes(url.protocol) ? url.href : null;
}

/** Parse `html` and return a sanitized fragment owned by the live document. */
export function sanitize(html: string): DocumentFragment {
  const inert = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  const out = document.createDocumentFragment();
  copyChildren(inert.body, out, 0);
  return out;
}

function copyChildren(from: Node, to: Node, depth: number): void {
  for (let n = from.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === Node.TEXT_NODE) {
      to.appendChild(document.createTextNode(n.nodeValue ?? ''));
    } else if (n.nodeType === Node.ELEMENT_NODE) {
      copyElement(n as Element, to, depth);
    } // comments, processing instructions, CDATA: dropped
  }
}

function copyElement(src: Element, to: Node, depth: number): void {
  const name = src.localName;
  if (DROP.has(name) || src.namespaceURI !== 'http://www.w3.org/1999/xhtml') return;
  const tag = RENAME[name] ?? name;
  if (!ALLOWED.has(tag) || depth >= MAX_DEPTH) {
    // Unknown element (or absurd nesting): keep its content, lose the element.
    copyChildren(src, to, depth + 1);
    return;
  }
  const el = document.createElement(tag);
  for (const attr of ATTRS[tag] ?? []) {
    const value = src.getAttribute(attr);
    if (value === null) continue;
    if (attr === 'href' || attr === 'src') {
      const url = safeUrl(value, attr === 'src' ? 'image' : 'link');
      if (url !== null) el.setAttribute(attr, url);
    } else if (['width', 'height', 'colspan', 'rowspan', 'start'].includes(attr)) {
      if (/^\d{1,4}$/.test(value)) el.setAttribute(attr, value);
    } else {
      el.setAttribute(attr, value);
    }
  }
  if (tag === 'a' && el.hasAttribute('href')) {
    const url = new URL(el.getAttribute('href') as string);
    if (url.origin !== location.origin) {
      el.setAttribute('rel', 'noopener noreferrer nofollow');
      el.setAttribute('target', '_blank');
    }
  }
  if (tag === 'img') {
    if (!el.hasAttribute('src')) return; // an image without a safe source is nothing
    el.setAttribute('loading', 'lazy');
    el.setAttribute('decoding', 'async');
    if (!el.hasAttribute('alt')) el.setAttribute('alt', '');
  }
  copyChildren(src, el, depth + 1);
  to.appendChild(el);
}
