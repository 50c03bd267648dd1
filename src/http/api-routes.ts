/**
 * Every route of the API, by path, in the order the OpenAPI document lists them. The document
 * (openapi.ts) is made of these declarations and the router (router.ts) serves them, so neither can
 * have a path the other lacks; the generated types (src/generated/openapi-types.ts) name the paths.
 */
import { eventList, specificEvent } from './routes/advertiser.js';
import { broadWidget } from './routes/broad.js';
import { catalog } from './routes/catalog.js';
import { followClick } from './routes/click.js';
import { complianceJson, compliancePageRoute } from './routes/compliance.js';
import { eventHistory } from './routes/event-history.js';
import { health, ready } from './routes/health.js';
import { impression } from './routes/impression.js';
import { liveMarketWidget } from './routes/live-market.js';
import { openApiDocument } from './routes/openapi.js';
import { advertiserConsole, demo, embedScript, reference, referenceRenderer } from './routes/pages.js';
import { postback } from './routes/postback.js';
import { reports } from './routes/reports.js';
import { eventWidget, sportsbookWidget } from './routes/widgets.js';
import type { AnyRoute, ApiPath } from './route.js';
import { webSocketUpgrade } from './ws-route.js';

export const ROUTES = {
  '/v1/widgets/broad': broadWidget.public,
  '/advertiser/v1/widgets/broad': broadWidget.advertiser,
  '/v1/widgets/event': eventWidget.public,
  '/advertiser/v1/widgets/event': eventWidget.advertiser,
  '/v1/widgets/sportsbook': sportsbookWidget.public,
  '/advertiser/v1/widgets/sportsbook': sportsbookWidget.advertiser,
  '/v1/widgets/live-market': liveMarketWidget.public,
  '/advertiser/v1/widgets/live-market': liveMarketWidget.advertiser,
  '/v1/widgets/event/history': eventHistory,
  '/advertiser/v1/widgets/events': eventList,
  '/advertiser/v1/widgets/specific/{event_slug}': specificEvent,
  '/advertiser/v1/reports': reports,
  '/v1/catalog': catalog,
  '/v1/compliance': complianceJson,
  '/compliance': compliancePageRoute,
  '/v1/openapi.json': openApiDocument,
  '/v1/embed.js': embedScript,
  '/docs': reference,
  '/docs/redoc.standalone.js': referenceRenderer,
  '/demo': demo,
  '/advertiser/console': advertiserConsole,
  '/v1/click': followClick,
  '/v1/impression': impression,
  '/v1/postback': postback,
  '/healthz': health,
  '/readyz': ready,
  '/v1/ws': webSocketUpgrade,
} as const satisfies { readonly [P in ApiPath]: AnyRoute & { readonly path: P } };
