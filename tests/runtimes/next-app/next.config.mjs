// Nothing for the SDK here. The stage builds this app inside the repository (target/), whose
// own package-lock.json would otherwise be taken for the workspace root.
const root = import.meta.dirname;
export default { outputFileTracingRoot: root, turbopack: { root } };
