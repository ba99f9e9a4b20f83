import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const reportFile = join(repoRoot, 'BENCHMARKS.md');

const markers = (name: string) => ({ start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` });

/** Each benchmark owns one marked section of BENCHMARKS.md: this replaces it, or appends it. */
export function writeReportSection(name: string, section: string): void {
  const { start, end } = markers(name);
  const current = existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : '';
  const block = `${start}\n${section.trim()}\n${end}`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + block + current.slice(to + end.length)
      : `${current}${current === '' ? '' : current.endsWith('\n') ? '\n' : '\n\n'}${block}\n`;
  writeFileSync(reportFile, next);
}

/** The other benchmarks' sections of the current report, kept when the service report is rewritten. */
export function markedSections(): string[] {
  const current = existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : '';
  return [...current.matchAll(/<!-- ([\w-]+):start -->[\s\S]*?<!-- \1:end -->/g)].map((match) => match[0]);
}
