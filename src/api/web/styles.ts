/**
 * The web UI's stylesheet (`/app.css`): a news front page in light and dark, one column on phones,
 * a story column and a side column from 900 px. No web fonts, no images but inline data icons.
 * Every text reads at 4.5:1 at least on what it sits on (WCAG 2 AA; a browser test checks each
 * view in both schemes with axe-core): --faint is the lightest text colour that still does on
 * --page and --accent-soft; the breaking banner has colours of its own, since white on the dark
 * scheme's light red (--red) read at 2.4:1.
 */
export const APP_CSS = `:root {
  color-scheme: light dark;
  --page: #f1f3f4; --card: #fff; --fg: #1f1f1f; --muted: #5f6368; --faint: #686d72; --line: #e3e5e8;
  --accent: #1a5fd6; --accent-soft: #e8f0fe; --red: #c5221f; --ok: #137333; --warn: #8a4b00;
  --breaking-bg: #c5221f; --breaking-fg: #fff;
  --radius: 14px; --shadow: 0 1px 2px rgb(60 64 67 / .12), 0 1px 3px 1px rgb(60 64 67 / .06);
}
@media (prefers-color-scheme: dark) {
  :root { --page: #111315; --card: #1d2024; --fg: #e8eaed; --muted: #a8adb3; --faint: #9aa0a6; --line: #33373c;
    --accent: #8ab4f8; --accent-soft: #23324a; --red: #f28b82; --ok: #81c995; --warn: #fdd663;
    --breaking-bg: #a50e0e; --breaking-fg: #fff; --shadow: none; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--page); }
a { color: var(--accent); }
code { font: .88em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--page); padding: .05em .35em; border-radius: 4px; }
button, input, select { font: inherit; color: inherit; }
::placeholder { color: var(--muted); opacity: 1; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: .5rem; z-index: 10; background: var(--card); padding: .4rem .8rem; }

/* masthead */
.masthead { position: sticky; top: 0; z-index: 5; background: var(--card); box-shadow: var(--shadow); border-bottom: 1px solid var(--line); }
.bar { display: flex; align-items: center; gap: 1rem; max-width: 1200px; margin: 0 auto; padding: .6rem 1rem; }
.brand { display: flex; align-items: center; gap: .5rem; font-size: 1.35rem; font-weight: 700; letter-spacing: -.02em; color: var(--fg); text-decoration: none; white-space: nowrap; }
.brand-mark { width: 1.5rem; height: 1.5rem; border-radius: 6px; background: linear-gradient(135deg, #4285f4 0 50%, #ea4335 50% 75%, #fbbc04 75%); }
#search { flex: 1; max-width: 40rem; margin: 0 auto; }
#q { width: 100%; padding: .62rem 1rem .62rem 2.4rem; border: 1px solid transparent; border-radius: 10px; background: var(--page) no-repeat .8rem 50%/1rem url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%2380868b' stroke-width='2.4'%3E%3Ccircle cx='10.5' cy='10.5' r='6.5'/%3E%3Cpath d='M15.5 15.5 21 21'/%3E%3C/svg%3E"); }
#q:focus { outline: none; border-color: var(--accent); background-color: var(--card); }
.edition { padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 8px; background: var(--card); max-width: 11rem; }
.sections { display: flex; gap: .2rem; max-width: 1200px; margin: 0 auto; padding: 0 1rem; overflow-x: auto; scrollbar-width: none; }
.sections a { flex: none; padding: .65rem .7rem .55rem; color: var(--muted); text-decoration: none; font-weight: 500; border-bottom: 3px solid transparent; }
.sections a:hover { color: var(--fg); }
.sections a[aria-current="page"] { color: var(--accent); border-bottom-color: var(--accent); }
.nav-sep { flex: none; width: 1px; margin: .6rem .4rem; background: var(--line); }

/* live bits (filled by the live module) */
#breaking { display: flex; gap: .6rem; align-items: baseline; margin: 1rem 0 0; padding: .7rem 1rem; border-radius: 10px; background: var(--breaking-bg); color: var(--breaking-fg); font-weight: 600; }
#breaking[hidden], #new-stories[hidden] { display: none; }
#breaking a { color: var(--breaking-fg); }
#breaking strong { flex: none; padding: .1rem .45rem; border-radius: 4px; background: rgb(0 0 0 / .2); font-size: .78rem; text-transform: uppercase; letter-spacing: .05em; }
#breaking .breaking-coverage { font-weight: 400; }
#new-stories { position: fixed; top: 7.2rem; left: 50%; transform: translateX(-50%); z-index: 6; padding: .5rem 1.1rem; border: 0; border-radius: 2rem; background: var(--accent); color: var(--card); font-weight: 600; box-shadow: 0 2px 8px rgb(0 0 0 / .25); cursor: pointer; }

/* page frame */
main { max-width: 1200px; margin: 0 auto; padding: 0 1rem 3rem; }
.view-head { padding: 1.4rem 0 .8rem; }
.view-head h1 { margin: 0; font-size: 1.7rem; letter-spacing: -.02em; }
.sub { margin: .2rem 0 0; color: var(--muted); }
.columns { display: grid; grid-template-columns: minmax(0, 1fr) 330px; gap: 1.5rem; align-items: start; }
.columns.single { grid-template-columns: minmax(0, 820px); }
.side { position: sticky; top: 7.5rem; display: grid; gap: 1rem; }
.panel { background: var(--card); border-radius: var(--radius); box-shadow: var(--shadow); padding: 1rem 1.1rem; }
.panel h2 { margin: 0 0 .6rem; font-size: 1.05rem; }
.panel h3 { margin: 1rem 0 .4rem; font-size: .85rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.panel-note, .section-note, .muted { color: var(--faint); font-size: .88rem; margin: .2rem 0 .6rem; }
.status { color: var(--muted); text-align: center; padding: 1.2rem 0; margin: 0; }
.status.error { color: var(--red); }
.site-foot { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .5rem; max-width: 1200px; margin: 0 auto; padding: 1.5rem 1rem 2.5rem; color: var(--faint); font-size: .85rem; border-top: 1px solid var(--line); }

/* story cards */
.story-list { display: grid; gap: .9rem; }
.story { background: var(--card); border-radius: var(--radius); box-shadow: var(--shadow); padding: 1rem 1.1rem .5rem; }
.lead { display: flex; gap: 1rem; align-items: flex-start; }
.lead-text { flex: 1; min-width: 0; }
.source { display: flex; align-items: center; gap: .45rem; font-size: .82rem; font-weight: 600; color: var(--fg); min-width: 0; }
.source .publisher { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.pub-badge { flex: none; display: inline-grid; place-items: center; width: 1.25rem; height: 1.25rem; border-radius: 50%; font-size: .7rem; font-weight: 700; color: #fff; }
.hue-0 { background: #1967d2; } .hue-1 { background: #d93025; } .hue-2 { background: #188038; } .hue-3 { background: #b45309; }
.hue-4 { background: #9334e6; } .hue-5 { background: #007b83; } .hue-6 { background: #b31412; } .hue-7 { background: #5f6368; }
.headline { margin: .35rem 0 .25rem; font-size: 1.12rem; line-height: 1.3; font-weight: 600; }
.title { color: var(--fg); text-decoration: none; overflow-wrap: anywhere; }
.title:hover { text-decoration: underline; }
.title:visited { color: var(--muted); }
.summary { margin: .2rem 0 .35rem; color: var(--muted); overflow-wrap: anywhere; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.meta { display: flex; flex-wrap: wrap; align-items: center; gap: .35rem; color: var(--faint); font-size: .82rem; }
.topic { color: var(--faint); text-decoration: none; } .topic:hover { color: var(--accent); text-decoration: underline; }
.matches { color: var(--accent); font-weight: 500; }
.thumb { flex: none; width: 176px; aspect-ratio: 16 / 9; object-fit: cover; border-radius: 10px; background: var(--page); }
.story-list > .story:first-child:not(.result) .headline { font-size: 1.4rem; letter-spacing: -.01em; }
.story-list > .story:first-child:not(.result) .thumb { width: 300px; }
.story-list > .story:first-child:not(.result) .summary { -webkit-line-clamp: 3; }
.related { list-style: none; margin: .6rem 0 0; padding: 0; border-top: 1px solid var(--line); }
.related li { padding: .1rem 0 .1rem .8rem; border-left: 3px solid var(--line); margin: .55rem 0 0; }
.related .title { font-size: .95rem; font-weight: 500; line-height: 1.3; }
.related .source { font-weight: 500; color: var(--muted); }
.related .pub-badge { width: 1rem; height: 1rem; font-size: .6rem; }
.story-foot { display: flex; align-items: center; justify-content: space-between; margin-top: .5rem; padding-top: .15rem; }
.full-coverage { display: inline-flex; align-items: center; gap: .45rem; padding: .4rem .7rem .4rem .5rem; margin-left: -.5rem; border-radius: 2rem; color: var(--accent); font-weight: 600; font-size: .88rem; text-decoration: none; }
.full-coverage:hover { background: var(--accent-soft); }
.fc-icon { width: .95rem; height: .75rem; border: 2px solid currentColor; border-radius: 2px; box-shadow: 3px -3px 0 -1px var(--card), 3px -3px 0 1px currentColor; margin: .2rem .1rem 0 0; }
.fc-count { padding: .05rem .45rem; border-radius: 1rem; background: var(--accent-soft); font-size: .78rem; }

/* For you */
.card-menu { position: relative; }
.card-menu summary { list-style: none; cursor: pointer; padding: .1rem .6rem; border-radius: 1rem; color: var(--muted); font-size: 1.2rem; line-height: 1; }
.card-menu summary::-webkit-details-marker { display: none; }
.card-menu summary:hover { background: var(--page); }
.card-menu .menu { position: absolute; right: 0; bottom: 2rem; z-index: 3; min-width: 15rem; padding: .3rem; background: var(--card); border: 1px solid var(--line); border-radius: 10px; box-shadow: 0 4px 16px rgb(0 0 0 / .18); }
.menu button { display: block; width: 100%; text-align: left; padding: .5rem .7rem; border: 0; border-radius: 6px; background: none; cursor: pointer; }
.menu button:hover:not(:disabled) { background: var(--page); }
button:disabled { opacity: .5; cursor: not-allowed; }
.notice { margin: .2rem 0 .6rem; font-size: .9rem; color: var(--muted); }
.notice:empty { display: none; }
.notice.warn { padding: .6rem .75rem; border-radius: 8px; background: var(--accent-soft); color: var(--fg); }
.topic-toggles { list-style: none; margin: 0; padding: 0; display: grid; gap: .3rem; }
.topic-toggles li { display: flex; align-items: center; gap: .35rem; }
.topic-name { flex: 1; }
.toggle { padding: .2rem .7rem; border: 1px solid var(--line); border-radius: 1rem; background: none; cursor: pointer; font-size: .85rem; }
.toggle.follow[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: var(--card); }
.toggle.hide[aria-pressed="true"] { background: var(--muted); border-color: var(--muted); color: var(--card); }
.chips { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .35rem; }
.chip { display: inline-flex; align-items: center; gap: .35rem; padding: .2rem .3rem .2rem .65rem; border-radius: 1rem; background: var(--accent-soft); font-size: .88rem; }
.chip.hide { background: var(--page); }
.chip-kind { color: var(--faint); font-size: .75rem; }
.chip-x { border: 0; background: none; cursor: pointer; font-size: 1rem; padding: 0 .35rem; color: var(--muted); }
.add-interest { display: grid; grid-template-columns: 1fr auto; gap: .4rem; }
.add-interest input, .add-interest select, .field input, .field select { padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 8px; background: var(--card); min-width: 0; }
.add-buttons { grid-column: 1 / -1; display: flex; gap: .4rem; }
.primary, .add-buttons button { padding: .45rem 1rem; border-radius: 8px; border: 1px solid var(--accent); background: var(--accent); color: var(--card); font-weight: 600; cursor: pointer; }
.add-buttons button:not(.primary) { background: none; color: var(--accent); }
.link-button { border: 0; background: none; padding: .3rem 0; color: var(--accent); cursor: pointer; }
.link-button.danger { color: var(--red); }
.forget { margin-top: 1rem; font-size: .85rem; }

/* trending */
.rank-list { list-style: none; margin: 0; padding: 0; counter-reset: rank; }
.rank-list li { counter-increment: rank; display: grid; grid-template-columns: 1.8rem 1fr; column-gap: .4rem; padding: .55rem 0; border-top: 1px solid var(--line); }
.rank-list li:first-child { border-top: 0; }
.rank-list li::before { content: counter(rank); grid-row: span 2; font-size: 1.3rem; font-weight: 700; color: var(--faint); }
.rank-title { color: var(--fg); text-decoration: none; font-weight: 600; font-size: .95rem; overflow-wrap: anywhere; }
.rank-title:hover { text-decoration: underline; }
.rank-meta { color: var(--faint); font-size: .8rem; }

/* empty states */
.empty { text-align: left; max-width: 40rem; margin: 0; padding: 1.4rem 1.6rem; background: var(--card); border-radius: var(--radius); box-shadow: var(--shadow); color: var(--fg); }
.empty h2 { margin: 0 0 .4rem; font-size: 1.25rem; }
.steps { padding-left: 1.2rem; } .steps li { margin: .45rem 0; }
.empty h3 { margin: 1.1rem 0 .5rem; font-size: .95rem; }
.catalogue-buttons { display: flex; flex-wrap: wrap; gap: .4rem; margin-bottom: .5rem; }
.sources-status { margin: .6rem 0 .9rem; padding: .7rem .9rem; border-radius: 10px; background: var(--page); color: var(--fg); }
.sources-status h3 { margin: 0 0 .3rem; font-size: 1rem; }
.sources-status p { margin: .2rem 0; }
.sources-status ul { margin: .3rem 0; padding-left: 1.2rem; }
.sources-status.bad { border-left: 4px solid var(--red); }
.sources-status.warn { border-left: 4px solid var(--warn); }
.sources-status.ok { border-left: 4px solid var(--ok); }

/* Full Coverage page */
.story-view { max-width: 860px; margin: 0 auto; }
.story-head { padding: 1.5rem 0 1rem; }
.alert-control { display: inline-flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin-top: .6rem; }
.alert-note:empty { display: none; }
.alerts p { margin: .4rem 0; }
.kicker { display: flex; gap: .6rem; align-items: center; margin: 0; color: var(--accent); font-weight: 600; font-size: .85rem; text-transform: uppercase; letter-spacing: .05em; }
.kicker .topic { text-transform: none; letter-spacing: 0; font-weight: 500; }
.story-head h1 { margin: .3rem 0 .4rem; font-size: 2rem; line-height: 1.2; letter-spacing: -.02em; overflow-wrap: anywhere; }
.story-meta { margin: 0; color: var(--muted); }
.cov-lead { display: grid; gap: 1rem; background: var(--card); border-radius: var(--radius); box-shadow: var(--shadow); padding: 1.1rem; }
.cov-lead.has-thumb { grid-template-columns: 320px minmax(0, 1fr); }
.lead-thumb { width: 100%; aspect-ratio: 16 / 9; object-fit: cover; border-radius: 10px; background: var(--page); }
.cov-lead .summary { -webkit-line-clamp: 5; font-size: 1.02rem; color: var(--fg); margin: .5rem 0 .7rem; }
.cov-lead .source .meta { font-weight: 400; }
.read-at { font-weight: 600; text-decoration: none; } .read-at:hover { text-decoration: underline; }
.cov-section { margin-top: 1.8rem; }
.cov-section > h2 { font-size: 1.2rem; margin: 0 0 .7rem; }
.timeline { list-style: none; margin: 0; padding: 0; background: var(--card); border-radius: var(--radius); box-shadow: var(--shadow); padding: .6rem 1.1rem; }
.timeline li { display: grid; grid-template-columns: 9.5rem minmax(0, 1fr); gap: 1rem; padding: .6rem 0; position: relative; border-top: 1px solid var(--line); }
.timeline li:first-child { border-top: 0; }
.tl-when { color: var(--muted); font-size: .85rem; display: flex; flex-direction: column; gap: .2rem; }
.tl-tag { align-self: start; padding: .05rem .45rem; border-radius: 1rem; background: var(--accent-soft); color: var(--accent); font-size: .72rem; font-weight: 600; }
.tl-body a { color: var(--fg); font-weight: 600; text-decoration: none; } .tl-body a:hover { text-decoration: underline; }
.tl-meta { display: block; color: var(--faint); font-size: .82rem; }
.mini-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: .7rem; }
.mini { background: var(--card); border-radius: var(--radius); box-shadow: var(--shadow); padding: .8rem; display: flex; flex-direction: column; gap: .2rem; }
.mini .headline { font-size: .95rem; }
.mini-thumb { width: 100%; aspect-ratio: 16 / 9; object-fit: cover; border-radius: 8px; margin-bottom: .4rem; background: var(--page); }
.regions { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: .8rem; }
.region { background: var(--card); border-radius: var(--radius); box-shadow: var(--shadow); padding: .8rem 1rem; }
.region h3 { display: flex; justify-content: space-between; gap: .5rem; margin: 0 0 .4rem; font-size: .98rem; }
.region-count { color: var(--faint); font-weight: 400; font-size: .82rem; }
.region ul { list-style: none; margin: 0; padding: 0; }
.region li { padding: .35rem 0; border-top: 1px solid var(--line); font-size: .92rem; }
.region li a { color: var(--fg); text-decoration: none; } .region li a:hover { text-decoration: underline; }
.region-pub { display: block; color: var(--faint); font-size: .78rem; }
.all-articles { list-style: none; margin: 0; padding: 0; background: var(--card); border-radius: var(--radius); box-shadow: var(--shadow); }
.article-row { display: flex; gap: 1rem; padding: .9rem 1.1rem; border-top: 1px solid var(--line); }
.article-row:first-child { border-top: 0; }
.article-row .headline { font-size: 1.02rem; }
.article-row .thumb { width: 140px; }
.copies { margin: .3rem 0 0; color: var(--faint); font-size: .8rem; }

/* admin */
.admin-tools { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 1rem; margin-bottom: 1rem; }
.token-form, .opml-form { display: flex; flex-wrap: wrap; align-items: flex-end; gap: .6rem; }
.add-source { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); align-items: end; gap: .6rem; }
.add-source .field:first-child { grid-column: 1 / -1; }
.add-source .field input, .add-source .field select { width: 100%; }
.add-source > button { justify-self: start; }
.field { display: grid; gap: .2rem; font-size: .82rem; color: var(--muted); }
.publishers.no-owner th:nth-child(7), .publishers.no-owner td:nth-child(7) { display: none; }
.admin-view > .panel, .admin-view > .notice { margin-bottom: 1rem; }
.table-wrap { overflow-x: auto; }
.publishers { width: 100%; border-collapse: collapse; font-size: .88rem; }
.publishers th { text-align: left; color: var(--muted); font-weight: 500; padding: .4rem .5rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
.publishers td { padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.pub-name { font-weight: 600; } .pub-url { color: var(--faint); font-size: .78rem; overflow-wrap: anywhere; max-width: 26rem; }
.error-cell { color: var(--red); max-width: 16rem; overflow-wrap: anywhere; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.health { display: inline-block; padding: .05rem .5rem; border-radius: 1rem; font-size: .78rem; font-weight: 600; white-space: nowrap; }
.health.ok { color: var(--ok); background: color-mix(in srgb, var(--ok) 14%, transparent); }
.health.warn { color: var(--warn); background: color-mix(in srgb, var(--warn) 16%, transparent); }
.health.bad { color: var(--red); background: color-mix(in srgb, var(--red) 14%, transparent); }
.health.idle { color: var(--muted); background: var(--page); }

/* narrow screens: one column; the side column goes under the stories (For you: above) */
@media (max-width: 900px) {
  .columns { grid-template-columns: minmax(0, 1fr); }
  .side { position: static; }
  .feed-view .side { display: none; }
  .foryou-view .side { order: -1; }
  .story-list > .story:first-child:not(.result) .thumb { width: 200px; }
}
@media (max-width: 640px) {
  body { font-size: 14.5px; }
  .bar { flex-wrap: wrap; gap: .5rem .8rem; padding: .5rem .75rem; }
  #search { order: 3; flex-basis: 100%; }
  .edition { margin-left: auto; max-width: 9.5rem; }
  .sections { padding: 0 .5rem; }
  main { padding: 0 .6rem 2rem; }
  #new-stories { top: 9.5rem; }
  .view-head { padding: 1rem .2rem .6rem; }
  .view-head h1 { font-size: 1.4rem; }
  .story { padding: .85rem .9rem .4rem; }
  .thumb, .story-list > .story:first-child:not(.result) .thumb, .article-row .thumb { width: 104px; aspect-ratio: 1; }
  .story-list > .story:first-child:not(.result) .headline { font-size: 1.2rem; }
  .headline { font-size: 1.04rem; }
  .story .summary { display: none; }
  .story-list > .story:first-child:not(.result) .summary { display: -webkit-box; }
  .story-head h1 { font-size: 1.5rem; }
  .cov-lead.has-thumb { grid-template-columns: 1fr; }
  .timeline li { grid-template-columns: 1fr; gap: .2rem; }
  .tl-when { flex-direction: row; }
  .article-row { padding: .8rem .9rem; }
}
`;
