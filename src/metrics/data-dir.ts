/** The data folder as metrics: whether it takes a write, and the space left (API process). */
import { Gauge } from 'prom-client';
import type { DataDirWatch } from '../store/data-dir-watch.js';

let watch: DataDirWatch | undefined;

new Gauge({
  name: 'predictwire_data_dir_writable',
  help: '1 when the data folder takes a write (counts not written to Redis can be spilled there at a stop), 0 when it does not',
  // Over API workers: 0 as soon as one of them cannot write.
  aggregator: 'min',
  collect() {
    this.reset();
    const state = watch?.state;
    if (state) this.set(state.writable ? 1 : 0);
  },
});

new Gauge({
  name: 'predictwire_data_dir_free_bytes',
  help: "Bytes free on the data folder's file system",
  aggregator: 'min',
  collect() {
    this.reset();
    const free = watch?.state?.freeBytes;
    if (free !== undefined) this.set(free);
  },
});

/** Reports `dataDir` on /metrics. */
export function exposeDataDir(dataDir: DataDirWatch): void {
  watch = dataDir;
}
