/** The version of the clinic API this service speaks (/health, the OpenAPI document, the server status). */
export const API_VERSION = '1.0';
