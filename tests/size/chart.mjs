// Writes the page-weight chart (an SVG, committed as docs/page-weights.svg and shown in the
// README) from the JSON scripts/bench-size.sh collects:
// { pages: [{ name, label, kb, budgetKb }], peers: [{ name, version, kb }], date }.
// Usage: node tests/size/chart.mjs FIGURES_JSON OUT_SVG
import { readFileSync, writeFileSync } from "node:fs";

const [input, output] = process.argv.slice(2);
const { pages, peers, date } = JSON.parse(readFileSync(input, "utf8"));
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const rows = [
  ...pages.map((p) => ({ label: `cirrus-storefront: ${p.label}`, kb: p.kb, budget: p.budgetKb, ours: true })),
  ...peers.map((p) => ({ label: `${p.name} ${p.version}`, kb: p.kb, ours: false })),
];
const W = 800, LEFT = 300, RIGHT = 100, ROW = 30, TOP = 48;
const H = TOP + rows.length * ROW + 42;
const max = Math.max(...rows.map((r) => Math.max(r.kb, r.budget ?? 0)));
const x = (kb) => LEFT + (kb / max) * (W - LEFT - RIGHT);
const svg = [
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif" font-size="13">`,
  `<rect width="${W}" height="${H}" fill="#fff"/>`,
  `<text x="16" y="24" font-size="15" font-weight="600">What a storefront page loads of its commerce SDK (KB, gzip -9 of every .js and .wasm)</text>`,
];
rows.forEach((r, i) => {
  const y = TOP + i * ROW;
  svg.push(`<text x="${LEFT - 8}" y="${y + 17}" text-anchor="end">${esc(r.label)}</text>`);
  const over = r.budget !== undefined && r.kb > r.budget;
  const fill = !r.ours ? "#9aa5b1" : over ? "#d9534f" : "#2e7d32";
  svg.push(`<rect x="${LEFT}" y="${y + 4}" width="${(x(r.kb) - LEFT).toFixed(1)}" height="${ROW - 10}" fill="${fill}"/>`);
  svg.push(`<text x="${(x(r.kb) + 6).toFixed(1)}" y="${y + 17}">${r.kb.toFixed(1)} KB</text>`);
  if (r.budget !== undefined) {
    const bx = x(r.budget).toFixed(1);
    svg.push(`<line x1="${bx}" x2="${bx}" y1="${y + 1}" y2="${y + ROW - 3}" stroke="#111" stroke-width="2" stroke-dasharray="3 2"/>`);
  }
});
const ly = TOP + rows.length * ROW + 20;
svg.push(
  `<rect x="16" y="${ly - 10}" width="12" height="12" fill="#2e7d32"/><text x="34" y="${ly}">within budget</text>`,
  `<rect x="130" y="${ly - 10}" width="12" height="12" fill="#d9534f"/><text x="148" y="${ly}">over budget</text>`,
  `<line x1="240" x2="240" y1="${ly - 11}" y2="${ly + 2}" stroke="#111" stroke-width="2" stroke-dasharray="3 2"/><text x="248" y="${ly}">budget</text>`,
  `<rect x="310" y="${ly - 10}" width="12" height="12" fill="#9aa5b1"/><text x="328" y="${ly}">peer SDK, same method</text>`,
  `<text x="${W - 16}" y="${ly}" text-anchor="end" fill="#555">scripts/bench-size.sh, ${esc(date)}</text>`,
  `</svg>`,
);
writeFileSync(output, svg.join("\n") + "\n");
