/** Addresses shown in the footer and on static pages. */
export const SUPPORT_EMAIL = 'support@whitecoat.app'
export const CONTACT_EMAIL = 'hello@whitecoat.app'
