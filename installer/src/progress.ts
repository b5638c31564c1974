/** A one-line progress bar on stderr when it is a terminal; silent otherwise (CI, pipes, hooks). */
export function createProgress(stream: NodeJS.WriteStream = process.stderr) {
  const enabled = Boolean(stream.isTTY) && !process.env.CI;
  let last = 0;
  let lastLine = '';
  return {
    update(label: string, done: number, total: number) {
      if (!enabled) return;
      const now = Date.now();
      if (done < total && now - last < 80) return;
      last = now;
      const width = 28;
      const filled = total ? Math.round((done / total) * width) : width;
      const line = `${label.padEnd(8)} ${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${done}/${total}`;
      if (line === lastLine) return;
      lastLine = line;
      stream.write(`\r\x1b[2K${line}`);
    },
    done() {
      if (enabled && lastLine) stream.write('\r\x1b[2K');
      lastLine = '';
    },
  };
}
