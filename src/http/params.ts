/** Query and header parameter schemas with the error messages a publisher reads. */
import { z } from 'zod';
import { ADVERTISER_ID } from '../auth/advertiser-keys.js';
import { parseJurisdiction } from '../geo/jurisdiction-code.js';
import { DISPLAY_FORMATS, LEAGUES, ODDS_FORMATS } from '../model/index.js';

const required = (what: string) => ({
  error: (iss: { input: unknown }) => (iss.input === undefined ? 'is required' : `must be ${what}`),
});

/** An integer parameter in [min, max]; "1.5", "", "1e3" and "010x" are all refused. */
export const intParam = (min: number, max: number) => {
  const msg = `must be an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,6}$/, msg)
    .transform(Number)
    .pipe(z.number().int().min(min, msg).max(max, msg));
};

export const enumParam = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (iss) => (iss.input === undefined ? 'is required' : `must be one of ${values.join(', ')}`) });

const SlugParam = z
  .string(required('an event slug'))
  .max(120, 'is too long')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase words joined by hyphens');

/** A jurisdiction: a country, an ISO 3166-2 subdivision, or ZZ; normalized (geo/jurisdiction-code.ts). */
export const JurisdictionParam = z
  .string()
  .transform((s, ctx) => {
    const code = parseJurisdiction(s);
    if (code === undefined) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be an ISO 3166-1 alpha-2 country code such as GB, an ISO 3166-2 subdivision such as US-NJ, or ZZ, in upper case',
      });
      return z.NEVER;
    }
    return code;
  })
  // A transform has no JSON Schema form: the published contract gets its shape and its meaning.
  .meta({
    type: 'string',
    pattern: '^[A-Z]{2}(-[A-Z0-9]{1,3})?$',
    maxLength: 6,
    description:
      'A country (ISO 3166-1 alpha-2, upper case, such as GB), a subdivision (ISO 3166-2, such as US-NJ or CA-ON), or ZZ for unknown. ' +
      'Subdivisions count in the US and Canada, where licences are regional; elsewhere they resolve to their country.',
  })
  .optional();

/**
 * Every widget route's geo parameters: `fallback_geo` stands in when nothing else places the caller;
 * `geo` (advertiser routes only: they are called server to server) is the viewer's jurisdiction,
 * ZZ when not given.
 */
export const GeoParams = { fallback_geo: JurisdictionParam, geo: JurisdictionParam };

export const AdvertiserIdParam = z
  .string()
  .max(64, 'must be 3-64 characters of a-z, 0-9, _ and -')
  .regex(ADVERTISER_ID, 'must be 3-64 characters of a-z, 0-9, _ and -')
  .meta({
    description:
      'A registered advertiser to credit with clicks on the links; grants nothing (an unregistered id is ignored).',
  })
  .optional();

/**
 * `refresh=1`: sent by embeds from before impressions were counted by beacon (their refreshes of a
 * widget already shown). Still accepted, and changes nothing: fetching a widget counts nothing.
 */
export const RefreshParam = enumParam(['1'])
  .meta({
    description:
      'Set to 1 on refreshes of a widget the page already shows: the same payload, and no impression is counted.',
  })
  .optional();

export const EventWidgetQuery = z.object({
  slug: SlugParam.meta({ description: 'The event, as the catalog lists it (lowercase words joined by hyphens).' }),
  display_format: enumParam(DISPLAY_FORMATS)
    .meta({ description: 'How prices are written: cents (62¢), implied_pct (62.0%) or decimal odds (1.61).' })
    .default('cents'),
  advertiser_id: AdvertiserIdParam,
  ...GeoParams,
  refresh: RefreshParam,
});

export const SportsbookWidgetQuery = z.object({
  league: enumParam(LEAGUES).meta({ description: 'The league whose next game is shown.' }),
  team_context: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'is too long')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    .regex(/^[^\x00-\x1f\x7f]*$/, 'must not contain control characters')
    .meta({ description: "A team's code, name, alias, or a page title naming one: that team's next game." })
    .optional(),
  /** Absent: the format the visitor's country reads (domain/odds.ts, oddsFormatFor). */
  odds_format: enumParam(ODDS_FORMATS)
    .meta({
      description:
        'How odds are written: +225, 3.25 or 9/4. Absent: fractional in GB and IE, American in the US and Canada, decimal elsewhere.',
    })
    .optional(),
  advertiser_id: AdvertiserIdParam,
  ...GeoParams,
});

export const SpecificEventQuery = z.object({
  limit: intParam(1, 100)
    .meta({ description: 'At most this many outcomes, highest combined 24-hour volume first. Default: all.' })
    .optional(),
  ...GeoParams,
});

export const SlugPath = SlugParam;

/** /v1/ws?fallback_geo=GB: as on the widget routes, used when the address gives no country. */
export const WsQuery = z.object({ fallback_geo: JurisdictionParam });
