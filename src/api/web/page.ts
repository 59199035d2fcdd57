/**
 * The web UI's static shell (`/`) and stylesheet (`/app.css`). The page holds no publisher text
 * at all: app.js fills it through the JSON API, so there is nothing to escape server-side, and
 * the Content-Security-Policy (set by the route) forbids inline scripts as a second line.
 */
export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>newsagg</title>
<link rel="stylesheet" href="/app.css">
<script type="module" src="/live.js"></script>
<script type="module" src="/app.js"></script>
</head>
<body>
<header>
  <h1><a href="/">newsagg</a></h1>
  <form id="search" role="search">
    <input id="q" name="q" type="search" placeholder="Search news" maxlength="200" aria-label="Search news">
    <button type="submit">Search</button>
  </form>
</header>
<nav id="regions" class="tabs" aria-label="Edition"></nav>
<nav id="topics" class="tabs" aria-label="Topics"></nav>
<div id="breaking" role="status" aria-live="polite" hidden></div>
<button id="new-stories" type="button" hidden></button>
<main>
  <h2 id="heading">Top stories</h2>
  <ol id="feed"></ol>
  <div id="more" aria-hidden="true"></div>
  <p id="status" aria-live="polite"></p>
</main>
<dialog id="coverage" aria-labelledby="coverage-title">
  <button id="coverage-close" type="button" aria-label="Close">×</button>
  <h2 id="coverage-title"></h2>
  <p id="coverage-meta"></p>
  <h3>Articles</h3>
  <ol id="coverage-articles"></ol>
  <h3>Publishers</h3>
  <ul id="coverage-publishers"></ul>
</dialog>
</body>
</html>
`;

export const APP_CSS = `:root { color-scheme: light dark; --fg: #202124; --muted: #5f6368; --line: #dadce0; --accent: #1a73e8; --bg: #fff; --card: #f8f9fa; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaed; --muted: #9aa0a6; --line: #3c4043; --accent: #8ab4f8; --bg: #202124; --card: #292a2d; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
header h1 { margin: 0; font-size: 1.3rem; } header h1 a { color: inherit; text-decoration: none; }
#search { display: flex; gap: .4rem; flex: 1; max-width: 36rem; }
#search input { flex: 1; padding: .45rem .7rem; border: 1px solid var(--line); border-radius: 2rem; background: var(--card); color: inherit; }
#search button, .tabs button, .coverage, #coverage-close { cursor: pointer; border: 1px solid var(--line); background: var(--card); color: inherit; border-radius: 1rem; padding: .3rem .8rem; }
.tabs { display: flex; gap: .4rem; padding: .5rem 1rem; overflow-x: auto; border-bottom: 1px solid var(--line); }
.tabs button[aria-pressed="true"] { border-color: var(--accent); color: var(--accent); font-weight: 600; }
#breaking { margin: .6rem 1rem; padding: .5rem .8rem; border-left: 4px solid #d93025; background: var(--card); overflow-wrap: anywhere; }
#breaking strong { color: #d93025; text-transform: uppercase; font-size: .85rem; letter-spacing: .03em; }
#breaking a { color: inherit; font-weight: 600; }
#new-stories { position: sticky; top: .5rem; z-index: 1; display: block; margin: .4rem auto; cursor: pointer; border: 0; border-radius: 1rem; padding: .35rem 1rem; background: var(--accent); color: var(--bg); font-weight: 600; box-shadow: 0 1px 4px rgb(0 0 0 / .3); }
#new-stories[hidden] { display: none; }
main { max-width: 52rem; margin: 0 auto; padding: 0 1rem 3rem; }
#feed { list-style: none; padding: 0; margin: 0; }
.card { display: flex; gap: .9rem; padding: .9rem 0; border-bottom: 1px solid var(--line); }
.thumb { width: 160px; height: 90px; object-fit: cover; border-radius: .5rem; flex: none; background: var(--card); }
.card .body { min-width: 0; }
.title { font-weight: 600; font-size: 1.05rem; color: inherit; text-decoration: none; overflow-wrap: anywhere; }
.title:hover { text-decoration: underline; }
.meta { color: var(--muted); font-size: .85rem; margin: .2rem 0; }
.cat { margin-left: .5rem; text-transform: capitalize; }
.summary { margin: .3rem 0; color: var(--muted); overflow-wrap: anywhere; }
.coverage { font-size: .8rem; margin-top: .2rem; }
#more { height: 1px; }
#status { color: var(--muted); text-align: center; }
dialog { max-width: 44rem; width: calc(100% - 2rem); border: 1px solid var(--line); border-radius: .8rem; background: var(--bg); color: inherit; }
dialog::backdrop { background: rgb(0 0 0 / .4); }
#coverage-close { float: right; }
#coverage-articles li, #coverage-publishers li { margin: .35rem 0; overflow-wrap: anywhere; }
@media (max-width: 560px) { .thumb { width: 96px; height: 54px; } }
`;
