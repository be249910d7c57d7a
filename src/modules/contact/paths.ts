// Where the contact form's API answers, for the routes that serve it and the pages that point to it.
export const CONTACT_API_PATH = '/api/site/contato'
export const SUBJECTS_API_PATH = `${CONTACT_API_PATH}/assuntos`
export const CHANNEL_STATE_API_PATH = `${CONTACT_API_PATH}/estado`
/** The site's form without JavaScript posts here (the site module serves it): the contact's other door. */
export const CONTACT_FORM_PATH = '/contato'
