/// <reference lib="dom" />
/**
 * Viewable impressions: once at least half of the widget has been in the viewport for one second
 * (the industry's viewability rule for display), its payload's `impression_url` is requested, once
 * per URL (a payload showing other operators has another). Counting happens there, not when data
 * is fetched, so widgets served from a CDN's cache count too.
 */
const VIEWABLE_RATIO = 0.5;
const VIEWABLE_MS = 1000;

export class Viewability {
  readonly #observer: IntersectionObserver;
  readonly #sent = new Set<string>();
  #timer?: ReturnType<typeof setTimeout>;
  /** The widget has been viewable for a second: report each payload as it comes. */
  #viewable = false;

  constructor(
    element: Element,
    private readonly url: () => string | null | undefined,
  ) {
    this.#observer = new IntersectionObserver(
      ([entry]) => {
        clearTimeout(this.#timer);
        this.#viewable = false;
        if (entry && entry.intersectionRatio >= VIEWABLE_RATIO)
          this.#timer = setTimeout(() => {
            this.#viewable = true;
            this.report();
          }, VIEWABLE_MS);
      },
      { threshold: [0, VIEWABLE_RATIO] },
    );
    this.#observer.observe(element);
  }

  /** Reports the current payload if the widget is viewable and it was not reported yet (call on each new payload). */
  report(): void {
    const url = this.url();
    if (!this.#viewable || !url || this.#sent.has(url)) return;
    this.#sent.add(url);
    // A beacon: no answer is read, and it outlives the page if the reader leaves at once.
    void fetch(url, { mode: 'no-cors', credentials: 'omit', keepalive: true }).catch(() => undefined);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#observer.disconnect();
  }
}
