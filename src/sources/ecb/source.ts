/** The ECB daily reference rates as an FX source. */
import type { Logger } from '../../runtime/log.js';
import type { FxData } from '../../model/index.js';
import { HttpClient, type Resilience } from '../http/client.js';
import type { FetchContext, FxSource } from '../source.js';
import { ecbToFx } from './parse.js';

export const ECB_DEFAULT_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

/** Creates the ECB FX source; `url` is the full address of the daily XML file. */
export function createEcbSource(
  opts: { url?: string; timeoutMs?: number; log?: Logger; resilience?: Resilience } = {},
): FxSource {
  const url = new URL(opts.url ?? ECB_DEFAULT_URL);
  const http = new HttpClient({
    name: 'ecb',
    baseUrl: url.origin,
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...opts.resilience,
    ...(opts.log ? { log: opts.log } : {}),
  });
  return {
    name: 'ecb',
    async fetchRates(ctx: FetchContext): Promise<FxData> {
      const res = await http.getText(url.pathname, Object.fromEntries(url.searchParams), ctx.signal);
      return ecbToFx(res.body, ctx.dropped);
    },
  };
}
