/**
 * Query parameters that only track the reader (campaigns, click ids, share widgets). They never
 * select different content (names that sometimes do, like `id`, `src` or `cid`,
 * are deliberately absent), so the canonical URL drops them. Prefixes end with `*`.
 */
export const TRACKING_PARAMS: readonly string[] = [
  'utm_*', 'fbclid', 'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'msclkid', 'yclid', 'twclid',
  'igshid', 'mc_cid', 'mc_eid', 'mkt_tok', '_hsenc', '_hsmi', '__hstc', '__hssc', '__hsfp', 'hsctatracking',
  'oly_anon_id', 'oly_enc_id', 'vero_id', 'vero_conv', 'rb_clickid', 's_cid', 'cmpid', 'cmp', 'ocid',
  'ns_source', 'ns_mchannel', 'ns_campaign', 'ns_linkname', 'ns_fee', 'at_medium', 'at_campaign',
  'at_custom*', 'share', 'shared', 'smid', 'smtyp', 'soc_src', 'soc_trk', 'ref', 'ref_src',
  'ref_url', 'referrer', 'ito', 'itm_*', 'int_*', 'ns_*', 'pk_*',
  'piwik_*', 'mtm_*', 'matomo_*', 'trk', 'trkcampaign', 'spm', 'scm', 'xtor', 'xts', 'wt_mc', 'wt.mc_id',
  'icid', 'ncid', 'guccounter', 'guce_referrer', 'guce_referrer_sig', 'rss', 'rssfeed',
  'outputtype', 'amp', 'amp_js_v', 'amp_gsa', 'usqp', '_gl', '_ga', 'ga_*', 'fb_action_ids',
  'fb_action_types', 'fb_source', 'fb_ref', 'action_object_map', 'action_type_map', 'action_ref_map',
];

const exact = new Set<string>();
const prefixes: string[] = [];
for (const p of TRACKING_PARAMS) {
  if (p.endsWith('*')) prefixes.push(p.slice(0, -1));
  else exact.add(p);
}

/** True when a query parameter name (any case) is a tracking parameter. */
export function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase();
  if (exact.has(n)) return true;
  for (const p of prefixes) if (n.startsWith(p)) return true;
  return false;
}
