/**
 * Where a browser calls an app method that an operation declares (server/http/app-method-routes.ts): a module of its
 * own, without dependencies, because the renderer bundles it too (renderer/src/transport/http.ts).
 */
export const appMethodPath = (name: string) => `/api/v1/app/${name}`;
