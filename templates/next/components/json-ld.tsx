// The SEO helpers' JSON-LD, as the helpers made it: it escapes <, >, &, U+2028 and U+2029, so
// it goes into the script element as it is.
export function JsonLd({ json }: { json: string }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
