/** Hand-written pages and sitemaps for the html tests (invented publishers and text). */

export interface ArticlePageOptions {
  title: string;
  description?: string;
  published?: string;
  image?: string;
  canonical?: string;
  siteName?: string;
  lang?: string;
  jsonLd?: boolean;
}

/** An article page carrying the usual metadata; parts left out are absent from the page. */
export function articlePage(o: ArticlePageOptions): string {
  const ld = o.jsonLd
    ? `<script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', name: o.siteName ?? 'Site' },
        {
          '@type': 'NewsArticle', headline: o.title, description: o.description,
          datePublished: o.published, image: o.image ? [{ '@type': 'ImageObject', url: o.image }] : undefined,
          author: [{ '@type': 'Person', name: 'Ada Reporter' }, { '@type': 'Person', name: 'Bo Editor' }],
          publisher: { '@type': 'Organization', name: o.siteName ?? 'Site' }, inLanguage: o.lang, keywords: 'alpha, beta',
        },
      ],
    })}</script>`
    : '';
  return `<!doctype html>
<html lang="${o.lang ?? 'en'}"><head>
<meta charset="utf-8">
<title>${o.title} | ${o.siteName ?? 'Site'}</title>
${o.description && !o.jsonLd ? `<meta name="description" content="${o.description}">` : ''}
${o.canonical ? `<link rel="canonical" href="${o.canonical}">` : ''}
${o.image && !o.jsonLd ? `<meta property="og:image" content="${o.image}">` : ''}
${o.published && !o.jsonLd ? `<meta property="article:published_time" content="${o.published}">` : ''}
${o.siteName ? `<meta property="og:site_name" content="${o.siteName}">` : ''}
${ld}
</head><body><article><h1>${o.title}</h1><p>Body text that is never stored.</p></article></body></html>`;
}

export function newsSitemap(entries: { loc: string; title?: string; date?: string; lang?: string; name?: string; keywords?: string }[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
${entries.map((e) => `<url><loc>${e.loc}</loc>${e.title || e.date ? `<news:news>
  <news:publication><news:name>${e.name ?? 'The Daily Example'}</news:name><news:language>${e.lang ?? 'en'}</news:language></news:publication>
  ${e.date ? `<news:publication_date>${e.date}</news:publication_date>` : ''}
  ${e.title ? `<news:title>${e.title}</news:title>` : ''}
  ${e.keywords ? `<news:keywords>${e.keywords}</news:keywords>` : ''}
</news:news>` : ''}</url>`).join('\n')}
</urlset>`;
}

export function sitemapIndex(children: { loc: string; lastmod?: string }[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${children.map((c) => `<sitemap><loc>${c.loc}</loc>${c.lastmod ? `<lastmod>${c.lastmod}</lastmod>` : ''}</sitemap>`).join('\n')}
</sitemapindex>`;
}
