/**
 * The geo headers a CDN adds to requests it forwards, believed only from TRUST_PROXY peers
 * (`CDN_GEO` names the CDN in front). Each gives the country (ISO 3166-1 alpha-2) and the
 * subdivision part of an ISO 3166-2 code ("NJ" for US-NJ):
 * - Cloudflare: `CF-IPCountry` (IP Geolocation) and `cf-region-code` (the "Add visitor location
 *   headers" Managed Transform); XX and T1 (Tor) are not countries.
 * - CloudFront: `CloudFront-Viewer-Country` and `CloudFront-Viewer-Country-Region`, added when the
 *   origin request policy forwards them.
 * - Fastly: no default header; the service's VCL copies `client.geo.country_code` and
 *   `client.geo.region` into `Fastly-Geo-Country` and `Fastly-Geo-Region` (docs/compliance.md).
 */
export const CDN_GEO = {
  cloudflare: { country: 'cf-ipcountry', region: 'cf-region-code' },
  cloudfront: { country: 'cloudfront-viewer-country', region: 'cloudfront-viewer-country-region' },
  fastly: { country: 'fastly-geo-country', region: 'fastly-geo-region' },
} as const;

export type CdnName = keyof typeof CDN_GEO;
export const CDN_NAMES = Object.keys(CDN_GEO) as [CdnName, ...CdnName[]];
