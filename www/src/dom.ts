// Tiny DOM helpers. Everything the page shows is built with createElement and
// textContent: no innerHTML anywhere, so data from the store can never become markup.
// (Store HTML content goes through sanitize.ts, which also builds nodes one by one.)

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** `h('a', { href: '/', class: 'x', onclick: fn }, 'text', child)` */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (typeof value === 'function') {
        el.addEventListener(name.replace(/^on/, ''), value);
      } else if (value === true) {
        el.setAttribute(name, '');
      } else {
        el.setAttribute(name, String(value));
      }
    }
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replace all children of `el`. */
export function replace(el: Node, ...children: (Child | Child[])[]): void {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
}

/** A polite live region's message: loading, empty, error. */
export function status(kind: 'loading' | 'empty' | 'error', text: string, action?: { label: string; run: () => void }): HTMLElement {
  const box = h('div', { class: `state state-${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-state': kind },
    kind === 'loading' ? h('span', { class: 'spinner', 'aria-hidden': 'true' }) : null,
    h('p', null, text));
  if (action) box.appendChild(h('button', { type: 'button', class: 'btn', onclick: action.run }, action.label));
  return box;
}
