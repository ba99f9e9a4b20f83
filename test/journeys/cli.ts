/**
 * `npm run test:server -- --base <url> --user <name> --password <password>`: the user's journeys
 * through the core against a server, one line each, and a closing count; non-zero on a failure.
 */
import { parseArgs } from 'node:util';
import { realJourneyClock } from './journey-clock.js';
import { describeOutcome, runJourneys } from './journeys.js';

const usage = 'usage: npm run test:server -- --base <url> --user <name> --password <password>';

const { values } = parseArgs({ options: { base: { type: 'string' }, user: { type: 'string' }, password: { type: 'string' } } });
if (values.base === undefined || values.user === undefined || values.password === undefined) {
  console.error(usage);
  process.exit(2);
}

const outcomes = await runJourneys(
  { base: values.base, username: values.user, password: values.password, clock: realJourneyClock },
  (outcome) => console.log(describeOutcome(outcome)),
);
const failed = outcomes.filter((outcome) => outcome.status === 'fail').length;
console.log(`journeys: ${outcomes.filter((outcome) => outcome.status === 'ok').length} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
