// The service's fixed answer bodies, word for word as the real servers send them (server-facts section B).

export const invalidBody = (...errors: string[]) => ({ links: [], message: 'There were errors processing your request', errors });
export const notFoundBody = { links: [], message: 'The requested resource was not found' };
export const unauthenticatedBody = { links: [], message: 'You must be authenticated in order to access this service.' };
export const forbiddenBody = { links: [], message: 'You must be an application administrator to access this service.' };
/** A signed-in caller who lacks the right to this reservation or resource (403). */
export const lacksRightBody = (message: string) => ({ links: [], message });
export const deletedBody = { links: [], message: 'The item was deleted' };

/** GetStatuses: fixed, and the same on every server. */
export const resourceStatusesBody = {
  statuses: [
    { id: 0, name: 'Hidden' },
    { id: 1, name: 'Available' },
    { id: 2, name: 'Unavailable' },
  ],
  links: [],
  message: null,
};

/** A custom attribute value as accounts, users and resources carry it. */
export const attributeValueItem = (service: { apiRoot: string }, id: number, label: string, value: string) => ({
  id,
  label,
  value,
  links: [{ href: `${service.apiRoot}/Attributes/${id}`, title: 'get_custom_attribute' }],
  message: null,
});
