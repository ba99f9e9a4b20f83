import { readdirSync, readFileSync } from 'node:fs';

/**
 * The pids of this process's children running `name`, read from /proc: what is really running,
 * whatever the code that started them believes.
 */
export function childProcessesNamed(name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // It ended while we looked.
    }
    // "pid (comm) state ppid …": comm may itself hold spaces and parentheses, so split at the last ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const [state, ppid] = stat.slice(close + 2).split(' ');
    if (comm === name && Number(ppid) === process.pid && state !== 'Z') found.push(Number(entry));
  }
  return found;
}
