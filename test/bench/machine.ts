// The machine a benchmark ran on, as recorded in test/bench/results.json and BENCHMARKS.md.

import os from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  os: string;
  /** The runtime: `Node v20.20.2`, or a browser's name and version. */
  runtime: string;
}

export function nodeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    ramGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    runtime: `Node ${process.version}`,
  };
}
