// First script of the CSP test page: every uncaught error, unhandled rejection and
// Content-Security-Policy violation of the page is kept for the test (window.__problems).
window.__problems = [];
window.addEventListener("error", (e) => window.__problems.push("error: " + e.message));
window.addEventListener("unhandledrejection", (e) => window.__problems.push("unhandled rejection: " + ((e.reason && e.reason.message) || String(e.reason))));
document.addEventListener("securitypolicyviolation", (e) => window.__problems.push("CSP: " + e.violatedDirective + " " + e.blockedURI));
