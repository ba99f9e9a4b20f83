import { fileURLToPath } from 'node:url';

/** The repository's root folder, wherever the scripts are run from. */
export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
