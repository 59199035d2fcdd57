/**
 * What makes the web UI installable: the web app manifest (`/manifest.webmanifest`) and its icon
 * (`/icon.svg`, a scalable icon, so no PNGs need building), both linked from the shell. The
 * theme colours are the stylesheet's accent (light) and page (dark) colours.
 */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
<rect width="512" height="512" rx="96" fill="#1a5fd6"/>
<path d="M512 0v416a96 96 0 0 1-96 96H0z" fill="#c5221f"/>
<rect x="112" y="136" width="288" height="48" rx="12" fill="#fff"/>
<rect x="112" y="232" width="208" height="40" rx="10" fill="#fff"/>
<rect x="112" y="312" width="240" height="40" rx="10" fill="#fff"/>
</svg>
`;

export const THEME_LIGHT = '#1a5fd6';
export const THEME_DARK = '#111315';

export const MANIFEST = {
  name: 'newsagg',
  short_name: 'newsagg',
  description: 'Stories from many publishers, grouped, with Full Coverage.',
  id: '/',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: '#f1f3f4',
  theme_color: THEME_LIGHT,
  icons: [
    { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
  ],
};

export const MANIFEST_JSON = JSON.stringify(MANIFEST, null, 2) + '\n';
