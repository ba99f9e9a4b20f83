/** What every successful delete answers, as real servers word it. */
export const deletionEnvelope = () => ({ links: [], message: 'The item was deleted' });
