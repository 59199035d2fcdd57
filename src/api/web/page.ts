/**
 * The web UI's static shell, served at every app URL (`/`, `/search`, `/for-you`, `/admin`,
 * `/story/:id`). It holds no publisher text at all: app.js fills it through the JSON API, so there
 * is nothing to escape server-side, and the Content-Security-Policy (set by the route) forbids
 * inline scripts as a second line. `__V__` is replaced with a digest of the client's bundles, so
 * a deploy is never mixed with cached files of the previous one (which may be cached for a year).
 *
 * Kept for the live module (`/live.js`, a bundle of its own, run first): `#breaking`, the
 * breaking-news banner at the top of the main content, and `#new-stories`, the "N new stories"
 * pill floating at the top centre. Its English text is the default; the client rewrites it in the
 * reader's language (client/shell.ts, the language picker `#lang` in the footer). The client's sources are in ./client (TypeScript, bundled by
 * esbuild: see bundle.ts).
 */
export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>newsagg</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='4' fill='%234285f4'/%3E%3Cpath d='M16 0v16H0z' fill='%23ea4335'/%3E%3C/svg%3E">
<link rel="manifest" href="/manifest.webmanifest">
<meta name="theme-color" content="#1a5fd6" media="(prefers-color-scheme: light)">
<meta name="theme-color" content="#111315" media="(prefers-color-scheme: dark)">
<link rel="apple-touch-icon" href="/icon.svg">
<link rel="stylesheet" href="/app.css?v=__V__">
<script type="module" src="/live.js?v=__V__"></script>
<script type="module" src="/app.js?v=__V__"></script>
</head>
<body>
<a class="skip" href="#main">Skip to the stories</a>
<header class="masthead">
  <div class="bar">
    <a class="brand" href="/" data-nav><span class="brand-mark" aria-hidden="true"></span>newsagg</a>
    <form id="search" role="search" action="/search" method="get">
      <input id="q" name="q" type="search" placeholder="Search for topics, places and sources" maxlength="200" aria-label="Search news" autocomplete="off">
    </form>
    <select id="edition" class="edition" aria-label="Edition"></select>
  </div>
  <nav id="sections" class="sections" aria-label="Sections"></nav>
</header>
<button id="new-stories" type="button" hidden></button>
<div id="offline" class="offline" role="status" aria-live="polite" hidden></div>
<main id="main">
  <div id="breaking" role="status" aria-live="polite" hidden></div>
  <div id="view"><noscript><p class="status">newsagg's reader needs JavaScript. The JSON API is at /v1/feed.</p></noscript></div>
</main>
<footer class="site-foot">
  <span id="about">newsagg: stories from many publishers, grouped, with Full Coverage. Headlines link to their publishers.</span>
  <span><a id="foot-sources" href="/admin" data-nav>Sources</a> · <a href="/v1/openapi.json">API</a> · <button id="shortcuts" class="link-button" type="button" aria-haspopup="dialog">Keyboard shortcuts (?)</button> · <select id="lang" class="lang" aria-label="Language"></select></span>
</footer>
</body>
</html>
`;
