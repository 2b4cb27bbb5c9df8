// Progress of long scans: a bar on a terminal, plain lines (every 10%) when output is piped or logged.
import cliProgress from 'cli-progress';

/** Reports progress of `total` steps. */
export interface Progress {
  tick(done: number, label?: string): void;
  stop(): void;
}

/** A progress reporter writing to stderr: a live bar when stderr is a TTY, else a line every tenth. */
export function createProgress(title: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${title} [{bar}] {value}/{total} {label}`, stream, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { label: '' });
    return { tick: (done, label = '') => bar.update(done, { label }), stop: () => bar.stop() };
  }
  let lastTenth = -1;
  return {
    tick(done) {
      const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (tenth !== lastTenth) {
        lastTenth = tenth;
        stream.write(`${title}: ${done}/${total}\n`);
      }
    },
    stop() {},
  };
}
