/**
 * For questions asked again before the last answer came (a line typed on, a time chosen anew): each
 * call marks a new question, and only the newest one's answer is to be used; a slower earlier
 * answer is dropped.
 */
export function latestOnly(): () => { isLatest(): boolean } {
  let asked = 0;
  return () => {
    const mine = ++asked;
    return { isLatest: () => mine === asked };
  };
}
