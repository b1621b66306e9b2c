// The table of scripts/bench-lighthouse.sh and scripts/bench-next.sh: the median of N
// Lighthouse runs of each page and preset, metric by metric, and the audits of accessibility,
// best practices and SEO that failed in any run. "CPU index" is Lighthouse's benchmark index of
// the runs (median): an idle machine of this kind measures about 1,500; a loaded one less, and
// every CPU-bound figure (TBT, the performance score) grows as it falls.
// node scripts/lighthouse-table.mjs REPORT_DIR RUNS "PRESETS" "PAGES"   (reports: DIR/PRESET-PAGE-I.json)
import fs from 'node:fs';
const [out, runs, presets, pages] = process.argv.slice(2);

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[(s.length - 1) >> 1]; };
const rows = [];
for (const preset of presets.split(' ').filter(Boolean)) for (const page of pages.split(' ').filter(Boolean)) {
  const rs = [];
  for (let i = 1; i <= Number(runs); i++) rs.push(JSON.parse(fs.readFileSync(`${out}/${preset}-${page}-${i}.json`, 'utf8')));
  const cat = (k) => median(rs.map((r) => Math.round(r.categories[k].score * 100)));
  const num = (k) => median(rs.map((r) => r.audits[k].numericValue));
  const fails = new Set();
  for (const r of rs) for (const k of ['accessibility', 'best-practices', 'seo'])
    for (const ref of r.categories[k].auditRefs) { const a = r.audits[ref.id]; if (ref.weight > 0 && a.score !== null && a.score < 1) fails.add(ref.id); }
  if (rs.some((r) => r.runtimeError)) fails.add(`runtimeError: ${rs.find((r) => r.runtimeError).runtimeError.code}`);
  rows.push([preset, page, cat('performance'), cat('accessibility'), cat('best-practices'), cat('seo'),
    `${(num('largest-contentful-paint') / 1000).toFixed(2)} s`, num('cumulative-layout-shift').toFixed(3),
    `${Math.round(num('total-blocking-time'))} ms`, `${(num('total-byte-weight') / 1024).toFixed(1)} KB`,
    Math.round(median(rs.map((r) => r.environment.benchmarkIndex))), [...fails].join(', ') || '-']);
}
const head = ['preset', 'page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP', 'CLS', 'TBT', 'bytes', 'CPU index', 'failing audits'];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log(`\nmedian of ${runs} run(s) each; reports in ${out.replace(process.cwd() + '/', '')}/`);
