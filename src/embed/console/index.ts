/// <reference lib="dom" />
/**
 * The advertiser console (/advertiser/console, docs/console.md): an advertiser signs in with its id
 * and key, kept in this tab's sessionStorage only (never in a URL, a cookie or localStorage), and
 * reads its report for a range of UTC days: totals, daily charts of viewable impressions, clicks
 * and conversions, and tables by operator, widget class and jurisdiction, all from
 * GET /advertiser/v1/reports, with the report's CSV to download. Numbers and dates in the viewer's
 * locale. No framework, nothing fetched but this API.
 */
import { barChart, type Series } from './chart.js';
import { byColumn, byDay, type Column, type Figures } from './figures.js';
import { formats, type Formats } from './format.js';
import type { ReportPayload } from '../../tracking/advertiser-report.js';
import { systemClock } from '../../model/clock.js';

const STORE = 'predictwire.console';
const DAY_MS = 86_400_000;
/** Day counts are kept 90 days (docs/contract.md, Reports). */
const KEPT_DAYS = 90;

interface Session {
  id: string;
  key: string;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const fmt: Formats = formats(navigator.language);

/** The signed-in advertiser of this tab, if any. */
function session(): Session | undefined {
  try {
    const s = JSON.parse(sessionStorage.getItem(STORE) ?? 'null') as Session | null;
    return s && typeof s.id === 'string' && typeof s.key === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A problem answer's detail, or a sentence for a failure without one. */
async function problemOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { detail?: string };
    if (body.detail) return body.detail;
  } catch {
    // not a problem body
  }
  return `The report could not be read (HTTP ${res.status}).`;
}

class SignedOut extends Error {}

/** GET the report for `query` as `s`. @throws SignedOut on 401; Error with the problem's detail otherwise. */
async function report(s: Session, query: URLSearchParams, csv = false): Promise<Response> {
  const res = await fetch(`/advertiser/v1/reports?${query}`, {
    headers: { 'x-advertiser-id': s.id, 'x-api-key': s.key, accept: csv ? 'text/csv' : 'application/json' },
    cache: 'no-store',
  });
  if (res.status === 401) throw new SignedOut(await problemOf(res));
  if (!res.ok) throw new Error(await problemOf(res));
  return res;
}

/** The range and currency the form asks for, as the report's query. */
function rangeQuery(): URLSearchParams {
  return new URLSearchParams({
    granularity: 'day',
    from: $<HTMLInputElement>('from').value,
    to: $<HTMLInputElement>('to').value,
    currency: $<HTMLSelectElement>('currency').value,
  });
}

const WIDGETS: Readonly<Record<string, string>> = {
  broad: 'Broad',
  'event-specific': 'Event',
  sportsbook: 'Sportsbook',
  'live-market': 'Live market',
};
let regions: Intl.DisplayNames | undefined;
/** What a row's key reads as in a table. */
function keyLabel(column: Column, key: string): string {
  if (column === 'widget') return WIDGETS[key] ?? key;
  if (column === 'country') {
    if (key === 'ZZ') return 'Unknown';
    regions ??= new Intl.DisplayNames(navigator.language, { type: 'region' });
    return `${regions.of(key) ?? key} (${key})`;
  }
  return key;
}

/** The columns of the totals and tables: figure, and how it is written. */
const FIGURES: ReadonlyArray<[keyof Figures, (f: Figures, currency: string) => string]> = [
  ['impressions', (f) => fmt.count(f.impressions)],
  ['clicks', (f) => fmt.count(f.clicks)],
  ['ctr', (f) => fmt.percent(f.ctr)],
  ['registrations', (f) => fmt.count(f.registrations)],
  ['first_deposits', (f) => fmt.count(f.first_deposits)],
  ['conversion_rate', (f) => fmt.percent(f.conversion_rate)],
  ['deposits', (f) => fmt.count(f.deposits)],
  ['deposit_amount', (f, c) => fmt.money(f.deposit_amount, c)],
  ['earnings', (f, c) => fmt.money(f.earnings, c)],
  ['earnings_per_click', (f, c) => fmt.money(f.earnings_per_click, c, true)],
];

/** A cell with a figure, its raw value beside the text (data-value) for tools and tests. */
function cell(
  tag: 'td' | 'dd',
  figure: keyof Figures,
  f: Figures,
  currency: string,
  write: (f: Figures, c: string) => string,
): HTMLElement {
  const e = document.createElement(tag);
  e.className = 'num';
  e.dataset.figure = figure;
  e.dataset.value = f[figure] === null ? '' : String(f[figure]);
  e.textContent = write(f, currency);
  return e;
}

function renderTotals(r: ReportPayload): void {
  for (const [figure, write] of FIGURES)
    $('totals')
      .querySelector(`[data-figure="${figure}"]`)!
      .replaceWith(cell('dd', figure, r.totals, r.currency, write));
}

function renderTable(id: string, column: Column, r: ReportPayload): void {
  const body = $(id).querySelector('tbody')!;
  const rows = byColumn(r.rows, column).map(({ key, figures }) => {
    const tr = document.createElement('tr');
    tr.dataset.key = key;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = keyLabel(column, key);
    tr.append(th, ...FIGURES.map(([figure, write]) => cell('td', figure, figures, r.currency, write)));
    return tr;
  });
  if (rows.length === 0) {
    const tr = document.createElement('tr');
    const td = document.createElement('td');
    td.colSpan = FIGURES.length + 1;
    td.textContent = 'Nothing counted in this range.';
    tr.append(td);
    rows.push(tr);
  }
  body.replaceChildren(...rows);
}

function renderCharts(r: ReportPayload): void {
  const daily = byDay(r);
  const days = daily.map((d) => d.day);
  const values = (k: keyof Figures) => daily.map((d) => Number(d.figures[k] ?? 0));
  const draw = (id: string, label: string, series: Series[]) =>
    $(id).replaceChildren(barChart(label, days, series, fmt, $(id).clientWidth || undefined));
  draw('chart-impressions', 'Viewable impressions per day', [
    { name: 'viewable impressions', cls: 'impressions', values: values('impressions') },
  ]);
  draw('chart-clicks', 'Clicks per day', [{ name: 'clicks', cls: 'clicks', values: values('clicks') }]);
  draw('chart-conversions', 'Conversions per day', [
    { name: 'registrations', cls: 'registrations', values: values('registrations') },
    { name: 'first deposits', cls: 'first-deposits', values: values('first_deposits') },
  ]);
}

function status(text: string): void {
  $('status').textContent = text;
}

/** Reads the range's reports and shows them; back to sign-in when the key is refused. */
async function load(): Promise<void> {
  const s = session();
  if (!s) return showSignIn();
  status('Loading…');
  const query = rangeQuery();
  const grouped = (by: string) => new URLSearchParams([...query, ['group_by', by]]);
  try {
    const [total, byOperator, byWidget, byCountry] = await Promise.all(
      [query, grouped('operator'), grouped('widget'), grouped('country')].map(
        async (q) => (await (await report(s, q)).json()) as ReportPayload,
      ),
    );
    renderTotals(total!);
    renderCharts(total!);
    renderTable('by-operator', 'operator_id', byOperator!);
    renderTable('by-widget', 'widget', byWidget!);
    renderTable('by-country', 'country', byCountry!);
    const fx = total!.fx_as_of
      ? ` Amounts in ${total!.currency} at the reference rates of ${fmt.longDay(total!.fx_as_of)}.`
      : '';
    status(`${fmt.longDay(total!.from)} – ${fmt.longDay(isoDay(Date.parse(total!.to) - DAY_MS))} (UTC days).${fx}`);
    $('board').dataset.loaded = query.toString();
  } catch (err) {
    if (err instanceof SignedOut) return signOut(err.message);
    status((err as Error).message);
  }
}

/** Downloads the range's report by operator, widget class and country as CSV (fetched with the key in headers, saved from memory). */
async function downloadCsv(): Promise<void> {
  const s = session();
  if (!s) return showSignIn();
  const query = new URLSearchParams([...rangeQuery(), ['group_by', 'operator,widget,country'], ['format', 'csv']]);
  try {
    const res = await report(s, query, true);
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download =
      /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'predictwire-report.csv';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    if (err instanceof SignedOut) return signOut(err.message);
    status((err as Error).message);
  }
}

function showSignIn(message = ''): void {
  $('board').hidden = true;
  $('signin').hidden = false;
  $('signin-error').textContent = message;
  $<HTMLInputElement>('advertiser-id').focus();
}

function signOut(message = ''): void {
  sessionStorage.removeItem(STORE);
  $<HTMLInputElement>('api-key').value = '';
  showSignIn(message);
}

function showBoard(s: Session): void {
  $('signin').hidden = true;
  $('board').hidden = false;
  $('who').textContent = s.id;
  void load();
}

function start(): void {
  const today = systemClock();
  const from = $<HTMLInputElement>('from');
  const to = $<HTMLInputElement>('to');
  for (const input of [from, to]) {
    input.min = isoDay(today - (KEPT_DAYS - 1) * DAY_MS);
    input.max = isoDay(today);
  }
  to.value = isoDay(today);
  from.value = isoDay(today - 6 * DAY_MS);
  $('signin-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const s = {
      id: $<HTMLInputElement>('advertiser-id').value.trim(),
      key: $<HTMLInputElement>('api-key').value.trim(),
    };
    if (!s.id || !s.key) return showSignIn('Enter both your advertiser id and your API key.');
    sessionStorage.setItem(STORE, JSON.stringify(s));
    showBoard(s);
  });
  $('range').addEventListener('submit', (e) => {
    e.preventDefault();
    void load();
  });
  $('csv').addEventListener('click', () => void downloadCsv());
  $('signout').addEventListener('click', () => signOut());
  const s = session();
  if (s) showBoard(s);
  else showSignIn();
}

start();
