/**
 * The widget's own interface text (headings, column names, alerts, screen-reader texts) in the
 * catalog's locales. The payload's texts (promos, CTA labels, questions) come localized from the
 * API; these are the words around them, so a `locale="de"` widget reads German throughout.
 *
 * Every label is plain text: the renderers escape it like any payload string. A label with a
 * parameter is a function, so each language puts the value where its grammar wants it.
 */

/** The languages the widget is written in: the catalog's locales. */
export const LANGS = ['en', 'es', 'de', 'fr', 'pt'] as const;
export type Lang = (typeof LANGS)[number];

/** Every interface string of the widget, for one language. */
export interface Labels {
  /** The table's language, set as `lang` on the widget so screen readers pronounce it right. */
  readonly lang: Lang;

  // Frame (index.ts, view.ts): the section's accessible name per kind, and the states around data.
  readonly titleEvent: string;
  readonly titleBroad: string;
  readonly titleSportsbook: string;
  readonly titleLive: string;
  /** The section's name when the kind attribute is missing or unknown. */
  readonly titleOther: string;
  readonly loading: string;
  readonly unavailable: string;
  readonly retrying: string;
  /** Data is shown, the last request failed and will be retried (the failure goes to the console). */
  readonly lastDataRetrying: string;
  /** Data is shown, the last request failed for good (a 4xx). */
  readonly lastDataStopped: string;
  readonly stale: string;

  // Shared pieces (html.ts).
  /** Screen-reader tail of a call-to-action link. */
  readonly sponsoredLink: (operator: string) => string;
  readonly bestOdds: string;
  /** Footer, before the country code. */
  readonly offersForRegion: string;
  /** Footer, before the time. */
  readonly updated: string;
  readonly code: string;
  readonly volume24h: string;
  readonly noOperator: string;

  // Broad widget.
  readonly topOperators: string;
  readonly volume24hAll: string;
  readonly busiestCategory: string;
  /** Before the list of app stores. */
  readonly app: string;
  readonly rank: string;
  readonly rating: string;
  readonly avgPerEvent: string;
  readonly liquidity: string;
  readonly notReported: string;
  /** The link to a promotion's full terms. */
  readonly terms: string;

  // Event widget.
  readonly trade: string;
  readonly pricesFor: (outcome: string) => string;
  readonly operator: string;
  readonly yesPrice: string;
  /** Before the outcome's depth. */
  readonly marketDepth: string;
  /** The expander of an outcome's further operators, and its way back. */
  readonly more: (count: number) => string;
  readonly fewer: string;

  // Live-market widget.
  readonly statusAwaitingStrike: string;
  readonly statusNoStrike: string;
  readonly statusStale: string;
  readonly upDownPayouts: string;
  readonly venue: string;
  readonly strike: string;
  readonly up: string;
  readonly down: string;
  readonly spotVsStrike: string;
  readonly noVenue: string;
  /** A live horizon no venue lists at all. */
  readonly noVenueForHorizon: string;
  /** Before the venues that list the window but have no usable quote now. */
  readonly venuesUnavailable: string;
  /** Before the countdown. */
  readonly closesIn: string;
  readonly window: (minutes: number) => string;

  // Sportsbook widget.
  readonly spread: string;
  readonly total: string;
  readonly moneyline: string;
  readonly away: string;
  readonly home: string;
  readonly over: string;
  readonly under: string;
  readonly draw: string;
  /** The short badge on a leading line; `bestSr` completes it for screen readers. */
  readonly best: string;
  readonly bestSr: string;
  readonly linesFor: (matchup: string) => string;
  readonly upcoming: string;
  readonly record: string;
  readonly wdl: string;
  readonly ats: string;
  readonly ou: string;
  readonly noSportsbook: string;
}

const en: Labels = {
  lang: 'en',
  titleEvent: 'Event odds comparison',
  titleBroad: 'Operator comparison',
  titleSportsbook: 'Sportsbook lines',
  titleLive: 'Live up/down market',
  titleOther: 'predictwire widget',
  loading: 'Loading…',
  unavailable: 'This widget is unavailable right now.',
  retrying: 'Retrying…',
  lastDataRetrying: 'Showing the last data received; retrying.',
  lastDataStopped: 'Showing the last data received; not updating.',
  stale: 'These prices may be delayed: a data source is not updating.',
  sponsoredLink: (op) => `at ${op} (sponsored, opens in a new tab)`,
  bestOdds: 'Best Odds',
  offersForRegion: 'Offers for your region:',
  updated: 'Updated',
  code: 'Code',
  volume24h: '24h volume',
  noOperator: 'No operator can be shown in your region.',
  topOperators: 'Top operators',
  volume24hAll: '24h volume, all operators',
  busiestCategory: 'Busiest category',
  app: 'App:',
  rank: 'Rank',
  rating: 'Rating',
  avgPerEvent: 'Avg per event',
  liquidity: 'Liquidity',
  notReported: 'not reported',
  terms: 'T&Cs',
  trade: 'Trade',
  pricesFor: (o) => `Prices for ${o}`,
  operator: 'Operator',
  yesPrice: 'Yes price',
  marketDepth: 'Market depth',
  more: (n) => `Show ${n} more`,
  fewer: 'Show fewer',
  statusAwaitingStrike: 'The window has just started: waiting for its strike price.',
  statusNoStrike: 'No strike was captured for this window; prices return with the next one.',
  statusStale: 'The price feed is delayed; prices are hidden until it is back.',
  upDownPayouts: 'Up and down payouts',
  venue: 'Venue',
  strike: 'Strike',
  up: 'Up',
  down: 'Down',
  spotVsStrike: 'spot vs strike',
  noVenue: 'No venue can be shown in your region.',
  noVenueForHorizon: 'No venue offers this window.',
  venuesUnavailable: 'Unavailable now:',
  closesIn: 'Closes in',
  window: (n) => `${n}-minute window`,
  spread: 'Spread',
  total: 'Total',
  moneyline: 'Moneyline',
  away: 'Away',
  home: 'Home',
  over: 'Over',
  under: 'Under',
  draw: 'Draw',
  best: 'Best',
  bestSr: 'odds',
  linesFor: (m) => `Lines for ${m}`,
  upcoming: 'Upcoming',
  record: 'Record',
  wdl: 'W-D-L',
  ats: 'ATS',
  ou: 'O/U',
  noSportsbook: 'No sportsbook can be shown in your region.',
};

// Spanish: informal "tú" as Spanish-language betting sites address readers; "cuota" for odds.
const es: Labels = {
  lang: 'es',
  titleEvent: 'Comparador de cuotas del evento',
  titleBroad: 'Comparador de operadores',
  titleSportsbook: 'Cuotas deportivas',
  titleLive: 'Mercado en vivo: sube o baja',
  titleOther: 'widget de predictwire',
  loading: 'Cargando…',
  unavailable: 'Este widget no está disponible en este momento.',
  retrying: 'Reintentando…',
  lastDataRetrying: 'Se muestran los últimos datos recibidos; reintentando.',
  lastDataStopped: 'Se muestran los últimos datos recibidos; sin actualizar.',
  stale: 'Estos precios pueden estar retrasados: una fuente de datos no se actualiza.',
  sponsoredLink: (op) => `en ${op} (patrocinado, se abre en una pestaña nueva)`,
  bestOdds: 'Mejor cuota',
  offersForRegion: 'Ofertas para tu región:',
  updated: 'Actualizado a las',
  code: 'Código',
  volume24h: 'Volumen 24 h',
  noOperator: 'No hay operadores disponibles en tu región.',
  topOperators: 'Mejores operadores',
  volume24hAll: 'Volumen 24 h, todos los operadores',
  busiestCategory: 'Categoría más activa',
  app: 'App:',
  rank: 'Puesto',
  rating: 'Valoración',
  avgPerEvent: 'Media por evento',
  liquidity: 'Liquidez',
  notReported: 'sin datos',
  terms: 'Términos',
  trade: 'Operar',
  pricesFor: (o) => `Precios de ${o}`,
  operator: 'Operador',
  yesPrice: 'Precio del Sí',
  marketDepth: 'Profundidad de mercado',
  more: (n) => `Ver ${n} más`,
  fewer: 'Ver menos',
  statusAwaitingStrike: 'La ventana acaba de empezar: esperando su precio de referencia.',
  statusNoStrike: 'No se registró precio de referencia en esta ventana; los precios vuelven con la siguiente.',
  statusStale: 'La fuente de precios va con retraso; los precios se ocultan hasta que se recupere.',
  upDownPayouts: 'Pagos si sube o baja',
  venue: 'Plataforma',
  strike: 'Referencia',
  up: 'Sube',
  down: 'Baja',
  spotVsStrike: 'precio actual frente a referencia',
  noVenue: 'No hay plataformas disponibles en tu región.',
  noVenueForHorizon: 'Ninguna plataforma ofrece esta ventana.',
  venuesUnavailable: 'No disponible ahora:',
  closesIn: 'Cierra en',
  window: (n) => `ventana de ${n} min`,
  spread: 'Hándicap',
  total: 'Total',
  moneyline: 'Ganador',
  away: 'Visitante',
  home: 'Local',
  over: 'Más',
  under: 'Menos',
  draw: 'Empate',
  best: 'Mejor',
  bestSr: 'cuota',
  linesFor: (m) => `Cuotas de ${m}`,
  upcoming: 'Próximamente',
  record: 'Balance',
  // Ganados-Empatados-Perdidos, as Spanish standings write it.
  wdl: 'G-E-P',
  ats: 'ATS',
  ou: 'O/U',
  noSportsbook: 'No hay casas de apuestas disponibles en tu región.',
};

// German: formal "Sie" as German betting sites address readers; "Anbieter" for operator.
const de: Labels = {
  lang: 'de',
  titleEvent: 'Quotenvergleich zum Ereignis',
  titleBroad: 'Anbietervergleich',
  titleSportsbook: 'Sportwetten-Quoten',
  titleLive: 'Live-Markt: steigt oder fällt',
  titleOther: 'predictwire-Widget',
  loading: 'Wird geladen…',
  unavailable: 'Dieses Widget ist gerade nicht verfügbar.',
  retrying: 'Neuer Versuch…',
  lastDataRetrying: 'Letzte empfangene Daten; neuer Versuch läuft.',
  lastDataStopped: 'Letzte empfangene Daten; keine Aktualisierung.',
  stale: 'Diese Preise können verzögert sein: Eine Datenquelle wird nicht aktualisiert.',
  sponsoredLink: (op) => `bei ${op} (gesponsert, öffnet in neuem Tab)`,
  bestOdds: 'Beste Quote',
  offersForRegion: 'Angebote für Ihre Region:',
  updated: 'Aktualisiert um',
  code: 'Code',
  volume24h: '24h-Volumen',
  noOperator: 'In Ihrer Region kann kein Anbieter angezeigt werden.',
  topOperators: 'Top-Anbieter',
  volume24hAll: '24h-Volumen, alle Anbieter',
  busiestCategory: 'Aktivste Kategorie',
  app: 'App:',
  rank: 'Rang',
  rating: 'Bewertung',
  avgPerEvent: 'Ø pro Ereignis',
  liquidity: 'Liquidität',
  notReported: 'keine Angabe',
  terms: 'AGB',
  trade: 'Handeln',
  pricesFor: (o) => `Preise für ${o}`,
  operator: 'Anbieter',
  yesPrice: 'Ja-Preis',
  marketDepth: 'Markttiefe',
  more: (n) => `${n} weitere zeigen`,
  fewer: 'Weniger zeigen',
  statusAwaitingStrike: 'Das Zeitfenster hat gerade begonnen: Der Referenzkurs steht noch aus.',
  statusNoStrike: 'Für dieses Zeitfenster wurde kein Referenzkurs erfasst; Preise gibt es ab dem nächsten wieder.',
  statusStale: 'Der Kurs-Feed ist verzögert; Preise bleiben ausgeblendet, bis er wieder läuft.',
  upDownPayouts: 'Auszahlungen bei Anstieg und Rückgang',
  venue: 'Anbieter',
  strike: 'Referenzkurs',
  up: 'Steigt',
  down: 'Fällt',
  spotVsStrike: 'Kurs ggü. Referenzkurs',
  noVenue: 'In Ihrer Region kann kein Anbieter angezeigt werden.',
  noVenueForHorizon: 'Kein Anbieter bietet dieses Zeitfenster an.',
  venuesUnavailable: 'Derzeit nicht verfügbar:',
  closesIn: 'Schließt in',
  window: (n) => `${n}-Minuten-Fenster`,
  spread: 'Handicap',
  total: 'Gesamt',
  moneyline: 'Sieger',
  away: 'Auswärts',
  home: 'Heim',
  over: 'Über',
  under: 'Unter',
  draw: 'Remis',
  best: 'Beste',
  bestSr: 'Quote',
  linesFor: (m) => `Quoten für ${m}`,
  upcoming: 'Bevorstehend',
  record: 'Bilanz',
  // Siege-Unentschieden-Niederlagen, as German tables write it.
  wdl: 'S-U-N',
  ats: 'ATS',
  ou: 'O/U',
  noSportsbook: 'In Ihrer Region kann kein Buchmacher angezeigt werden.',
};

// French: a no-break space before ":" and ";" as French typography wants, so they never wrap alone.
const fr: Labels = {
  lang: 'fr',
  titleEvent: 'Comparateur de cotes de l’événement',
  titleBroad: 'Comparatif des opérateurs',
  titleSportsbook: 'Cotes sportives',
  titleLive: 'Marché en direct\u00a0: hausse ou baisse',
  titleOther: 'widget predictwire',
  loading: 'Chargement…',
  unavailable: 'Ce widget est indisponible pour le moment.',
  retrying: 'Nouvelle tentative…',
  lastDataRetrying: 'Dernières données reçues\u00a0; nouvelle tentative.',
  lastDataStopped: 'Dernières données reçues\u00a0; plus de mise à jour.',
  stale: 'Ces prix peuvent être retardés\u00a0: une source de données n’est plus mise à jour.',
  sponsoredLink: (op) => `sur ${op} (sponsorisé, s’ouvre dans un nouvel onglet)`,
  bestOdds: 'Meilleure cote',
  offersForRegion: 'Offres pour votre région\u00a0:',
  updated: 'Mis à jour à',
  code: 'Code',
  volume24h: 'Volume 24 h',
  noOperator: 'Aucun opérateur ne peut être affiché dans votre région.',
  topOperators: 'Meilleurs opérateurs',
  volume24hAll: 'Volume 24 h, tous opérateurs',
  busiestCategory: 'Catégorie la plus active',
  app: 'Appli\u00a0:',
  rank: 'Rang',
  rating: 'Note',
  avgPerEvent: 'Moyenne par événement',
  liquidity: 'Liquidité',
  notReported: 'non disponible',
  terms: 'Conditions',
  trade: 'Trader',
  pricesFor: (o) => `Prix pour ${o}`,
  operator: 'Opérateur',
  yesPrice: 'Prix du Oui',
  marketDepth: 'Profondeur de marché',
  more: (n) => `Voir ${n} de plus`,
  fewer: 'Voir moins',
  statusAwaitingStrike: 'La fenêtre vient de commencer\u00a0: prix de référence en attente.',
  statusNoStrike:
    'Aucun prix de référence n’a été relevé pour cette fenêtre\u00a0; les prix reviennent avec la suivante.',
  statusStale: 'Le flux de prix est retardé\u00a0; les prix sont masqués jusqu’à son retour.',
  upDownPayouts: 'Gains à la hausse et à la baisse',
  venue: 'Plateforme',
  strike: 'Référence',
  up: 'Hausse',
  down: 'Baisse',
  spotVsStrike: 'cours actuel vs référence',
  noVenue: 'Aucune plateforme ne peut être affichée dans votre région.',
  noVenueForHorizon: 'Aucune plateforme ne propose cette fenêtre.',
  venuesUnavailable: 'Indisponible pour le moment :',
  closesIn: 'Clôture dans',
  window: (n) => `fenêtre de ${n}\u00a0min`,
  spread: 'Handicap',
  total: 'Total',
  moneyline: 'Vainqueur',
  away: 'Extérieur',
  home: 'Domicile',
  over: 'Plus',
  under: 'Moins',
  draw: 'Nul',
  best: 'Meilleure',
  bestSr: 'cote',
  linesFor: (m) => `Cotes pour ${m}`,
  upcoming: 'À venir',
  record: 'Bilan',
  // Victoires-Nuls-Défaites.
  wdl: 'V-N-D',
  ats: 'ATS',
  ou: 'O/U',
  noSportsbook: 'Aucun bookmaker ne peut être affiché dans votre région.',
};

// Portuguese: wording both Brazil and Portugal read naturally ("odd" as Brazilian sites write it).
const pt: Labels = {
  lang: 'pt',
  titleEvent: 'Comparador de odds do evento',
  titleBroad: 'Comparador de operadores',
  titleSportsbook: 'Odds esportivas',
  titleLive: 'Mercado ao vivo: sobe ou desce',
  titleOther: 'widget da predictwire',
  loading: 'Carregando…',
  unavailable: 'Este widget está indisponível no momento.',
  retrying: 'Tentando novamente…',
  lastDataRetrying: 'Mostrando os últimos dados recebidos; tentando novamente.',
  lastDataStopped: 'Mostrando os últimos dados recebidos; sem atualização.',
  stale: 'Estes preços podem estar atrasados: uma fonte de dados não está atualizando.',
  sponsoredLink: (op) => `em ${op} (patrocinado, abre em nova aba)`,
  bestOdds: 'Melhor odd',
  offersForRegion: 'Ofertas para a sua região:',
  updated: 'Atualizado às',
  code: 'Código',
  volume24h: 'Volume 24h',
  noOperator: 'Nenhum operador pode ser exibido na sua região.',
  topOperators: 'Melhores operadores',
  volume24hAll: 'Volume 24h, todos os operadores',
  busiestCategory: 'Categoria mais ativa',
  app: 'App:',
  rank: 'Posição',
  rating: 'Avaliação',
  avgPerEvent: 'Média por evento',
  liquidity: 'Liquidez',
  notReported: 'sem dados',
  terms: 'Termos',
  trade: 'Negociar',
  pricesFor: (o) => `Preços de ${o}`,
  operator: 'Operador',
  yesPrice: 'Preço do Sim',
  marketDepth: 'Profundidade de mercado',
  more: (n) => `Ver mais ${n}`,
  fewer: 'Ver menos',
  statusAwaitingStrike: 'A janela acabou de começar: aguardando o preço de referência.',
  statusNoStrike: 'Nenhum preço de referência foi registrado nesta janela; os preços voltam na próxima.',
  statusStale: 'O feed de preços está atrasado; os preços ficam ocultos até ele voltar.',
  upDownPayouts: 'Pagamentos se sobe ou desce',
  venue: 'Plataforma',
  strike: 'Referência',
  up: 'Sobe',
  down: 'Desce',
  spotVsStrike: 'preço atual vs. referência',
  noVenue: 'Nenhuma plataforma pode ser exibida na sua região.',
  noVenueForHorizon: 'Nenhuma plataforma oferece esta janela.',
  venuesUnavailable: 'Indisponível agora:',
  closesIn: 'Fecha em',
  window: (n) => `janela de ${n} min`,
  spread: 'Handicap',
  total: 'Total',
  moneyline: 'Vencedor',
  away: 'Fora',
  home: 'Casa',
  over: 'Mais',
  under: 'Menos',
  draw: 'Empate',
  best: 'Melhor',
  bestSr: 'odd',
  linesFor: (m) => `Odds de ${m}`,
  upcoming: 'Em breve',
  record: 'Campanha',
  // Vitórias-Empates-Derrotas.
  wdl: 'V-E-D',
  ats: 'ATS',
  ou: 'O/U',
  noSportsbook: 'Nenhuma casa de apostas pode ser exibida na sua região.',
};

/** Every language's table (exported for the tests that keep them complete). */
export const LABELS: Readonly<Record<Lang, Labels>> = { en, es, de, fr, pt };

/**
 * The table for a `locale` attribute: its language subtag, any case (`de`, `de-DE`, `DE`, `pt_BR`).
 * A language the widget is not written in, or no locale at all, gets English.
 */
export function labelsFor(locale: string | null | undefined): Labels {
  const lang = (locale ?? '').trim().split(/[-_]/)[0]!.toLowerCase();
  // A membership test, not a lookup alone: "constructor" must not find Object's own property.
  return (LANGS as readonly string[]).includes(lang) ? LABELS[lang as Lang] : en;
}
